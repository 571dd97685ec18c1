// SPDX-License-Identifier: MIT
#pragma once
// CountdownLatch: std::latch's contract (count_down, wait, try_wait) over a mutex and a
// condition variable, for the few meetings of a run's threads (connected, go, done).
//
// Why not std::latch: where libstdc++ has no futex (Windows: MinGW-w64's libstdc++ 12,
// bits/atomic_wait.h) it waits by reading the value, and only then locking a mutex and sleeping
// on a condition variable, while notify signals that variable without taking the mutex. A
// count_down() that lands between the waiter's read and its sleep wakes nobody, and the waiter
// sleeps forever. hammer.exe under wine hung so before its run began in 6 of 40 runs of the
// platform check (all connections established; winedbg: the worker in std::latch::wait on `go`,
// inside pthread_cond_wait, the main thread past it in std::thread::join); a reduced handshake
// (one thread, three std::latch, repeated) hung within two rounds. Here the count is read and
// changed only under the mutex, so a wake-up cannot fall into that gap.
//
// Setup only (a few calls per run), never on a worker's hot path.
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace hammer {

class CountdownLatch {
 public:
  explicit CountdownLatch(int64_t count) : count_(count) {}
  CountdownLatch(const CountdownLatch&) = delete;
  CountdownLatch& operator=(const CountdownLatch&) = delete;

  /// Lowers the count by one (not below zero); the one that reaches zero wakes every waiter.
  void count_down() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (count_ > 0 && --count_ == 0) opened_.notify_all();
  }

  /// Blocks until the count is zero (returns at once if it is).
  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    opened_.wait(lock, [this] { return count_ == 0; });
  }

  /// The count is zero; never blocks for longer than the mutex is held.
  bool try_wait() {
    std::lock_guard<std::mutex> lock(mutex_);
    return count_ == 0;
  }

 private:
  std::mutex mutex_;
  std::condition_variable opened_;
  int64_t count_;  // guarded by mutex_
};

}  // namespace hammer
