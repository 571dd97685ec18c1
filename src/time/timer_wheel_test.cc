// SPDX-License-Identifier: MIT
// TimerWheel against a brute-force model (every armed deadline in a plain array, scanned in
// full), under long random sequences with fixed seeds, plus focused cases. No clock is read:
// every time is a number the test chooses.
#include "time/timer_wheel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <optional>
#include <ostream>
#include <random>
#include <set>
#include <vector>

namespace hammer {
namespace {

constexpr int64_t kStart = 1'000'000'000;  // an arbitrary clock reading for tick 0
constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

std::vector<uint32_t> expire_ids(TimerWheel& wheel, int64_t now_ns) {
  std::vector<uint32_t> ids;
  wheel.advance(now_ns, [&](TimerNode* node) { ids.push_back(node->id); });
  return ids;
}

std::vector<TimerNode> make_nodes(size_t count) {
  std::vector<TimerNode> nodes(count);
  for (size_t i = 0; i < count; ++i) nodes[i].id = static_cast<uint32_t>(i);
  return nodes;
}

TEST(TimerWheelTest, NodeFiresAtItsExactDeadlineNotAtTheStartOfItsTick) {
  TimerWheel wheel(kStart, 1000, 64);
  auto nodes = make_nodes(1);
  wheel.arm(&nodes[0], kStart + 1500);
  EXPECT_TRUE(nodes[0].armed());
  EXPECT_TRUE(expire_ids(wheel, kStart + 1000).empty());
  EXPECT_TRUE(expire_ids(wheel, kStart + 1499).empty());
  EXPECT_EQ(expire_ids(wheel, kStart + 1500), std::vector<uint32_t>{0});
  EXPECT_FALSE(nodes[0].armed());
  EXPECT_EQ(wheel.armed_count(), 0);
  EXPECT_TRUE(expire_ids(wheel, kStart + 10'000).empty());
}

TEST(TimerWheelTest, DeadlineAlreadyPastExpiresAtTheNextAdvance) {
  TimerWheel wheel(kStart, 1000, 64);
  auto nodes = make_nodes(2);
  EXPECT_TRUE(expire_ids(wheel, kStart + 50'000).empty());
  wheel.arm(&nodes[0], kStart + 10'000);  // 40 us in the past
  wheel.arm(&nodes[1], kStart - 5);       // before the wheel's start
  EXPECT_EQ(wheel.next_deadline_ns(), kStart - 5);
  auto fired = expire_ids(wheel, kStart + 50'000);  // same time: still fires
  std::sort(fired.begin(), fired.end());
  EXPECT_EQ(fired, (std::vector<uint32_t>{0, 1}));
}

TEST(TimerWheelTest, TimeGoingBackwardsIsTreatedAsTheLatestTimeSeen) {
  TimerWheel wheel(kStart, 1000, 64);
  auto nodes = make_nodes(1);
  EXPECT_TRUE(expire_ids(wheel, kStart + 9'000).empty());
  wheel.arm(&nodes[0], kStart + 8'500);
  EXPECT_EQ(expire_ids(wheel, kStart + 100), std::vector<uint32_t>{0});
}

TEST(TimerWheelTest, ReArmingAnArmedNodeMovesIt) {
  TimerWheel wheel(kStart, 1000, 64);
  auto nodes = make_nodes(1);
  wheel.arm(&nodes[0], kStart + 5'000);
  wheel.arm(&nodes[0], kStart + 900'000);  // many revolutions of 64 us ahead
  EXPECT_EQ(wheel.armed_count(), 1);
  EXPECT_TRUE(expire_ids(wheel, kStart + 899'999).empty());
  EXPECT_EQ(expire_ids(wheel, kStart + 900'000), std::vector<uint32_t>{0});
}

TEST(TimerWheelTest, DisarmCancelsAndIsANoOpOnAnUnarmedNode) {
  TimerWheel wheel(kStart, 1000, 64);
  auto nodes = make_nodes(2);
  wheel.disarm(&nodes[0]);
  EXPECT_EQ(wheel.armed_count(), 0);
  wheel.arm(&nodes[0], kStart + 3'000);
  wheel.arm(&nodes[1], kStart + 3'000);
  wheel.disarm(&nodes[0]);
  wheel.disarm(&nodes[0]);
  EXPECT_FALSE(nodes[0].armed());
  EXPECT_EQ(wheel.armed_count(), 1);
  EXPECT_EQ(expire_ids(wheel, kStart + 3'000), std::vector<uint32_t>{1});
}

TEST(TimerWheelTest, MovingTheWheelKeepsItsArmedNodes) {
  TimerWheel original(kStart, 1000, 64);
  auto nodes = make_nodes(2);
  original.arm(&nodes[0], kStart + 5'000);
  original.arm(&nodes[1], kStart + 5'000);  // same slot: linked to each other
  TimerWheel moved(std::move(original));
  moved.disarm(&nodes[1]);
  EXPECT_EQ(expire_ids(moved, kStart + 5'000), std::vector<uint32_t>{0});
}

TEST(TimerWheelTest, DeadlinesManyRevolutionsAheadWaitForTheirRound) {
  // 64 slots of 1 us: one revolution is 64 us. Nodes share slot 5 across rounds.
  TimerWheel wheel(kStart, 1000, 64);
  auto nodes = make_nodes(4);
  for (uint32_t round = 0; round < 4; ++round) {
    wheel.arm(&nodes[round], kStart + 5'000 + round * 64'000 + 10 * round);
  }
  for (uint32_t round = 0; round < 4; ++round) {
    // Walk the revolution in small steps up to just before the deadline, then reach it.
    const int64_t deadline = nodes[round].deadline_ns;
    for (int64_t now = deadline - 63'000; now < deadline; now += 7'000) {
      EXPECT_TRUE(expire_ids(wheel, now).empty()) << "round " << round << " now " << now;
    }
    EXPECT_EQ(expire_ids(wheel, deadline), std::vector<uint32_t>{round});
  }
}

TEST(TimerWheelTest, LongIdleGapExpiresExactlyTheDueNodes) {
  TimerWheel wheel(kStart, 1000, 1024);
  auto nodes = make_nodes(300);
  std::mt19937_64 rng(7);
  std::set<uint32_t> due;
  const int64_t now = kStart + 50'000'000;  // ~49 revolutions later
  for (auto& node : nodes) {
    const int64_t deadline = kStart + static_cast<int64_t>(rng() % 100'000'000);
    wheel.arm(&node, deadline);
    if (deadline <= now) due.insert(node.id);
  }
  auto fired = expire_ids(wheel, now);
  EXPECT_EQ(std::set<uint32_t>(fired.begin(), fired.end()), due);
  EXPECT_EQ(fired.size(), due.size());
  EXPECT_EQ(wheel.armed_count(), static_cast<int32_t>(nodes.size() - due.size()));
}

TEST(TimerWheelTest, WithinOneRevolutionNodesFireInTickOrder) {
  TimerWheel wheel(kStart, 1000, 4096);
  auto nodes = make_nodes(500);
  std::mt19937_64 rng(11);
  for (auto& node : nodes) wheel.arm(&node, kStart + static_cast<int64_t>(rng() % 4'000'000));
  std::vector<int64_t> ticks;
  wheel.advance(kStart + 4'000'000, [&](TimerNode* node) {
    ticks.push_back((node->deadline_ns - kStart) / 1000);
  });
  EXPECT_EQ(ticks.size(), nodes.size());
  EXPECT_TRUE(std::is_sorted(ticks.begin(), ticks.end()));
}

TEST(TimerWheelTest, CallbackReArmingItselfFiresOncePerAdvance) {
  TimerWheel wheel(kStart, 1000, 64);
  auto nodes = make_nodes(1);
  wheel.arm(&nodes[0], kStart + 1'000);
  int fires = 0;
  for (int step = 1; step <= 5; ++step) {
    // A periodic timer that re-arms itself in the past must not loop inside one advance.
    const int count = wheel.advance(kStart + step * 1'000, [&](TimerNode* node) {
      ++fires;
      wheel.arm(node, kStart + step * 1'000 - 1);
    });
    EXPECT_EQ(count, 1);
    EXPECT_EQ(fires, step);
  }
  EXPECT_TRUE(nodes[0].armed());
}

TEST(TimerWheelTest, CallbackDisarmingAnotherNodeDueInTheSameAdvanceStopsIt) {
  TimerWheel wheel(kStart, 1000, 64);
  auto nodes = make_nodes(3);
  for (auto& node : nodes) wheel.arm(&node, kStart + 2'000);
  std::vector<uint32_t> fired;
  // Whichever fires first cancels the other two; exactly one fires.
  const int count = wheel.advance(kStart + 2'000, [&](TimerNode* node) {
    fired.push_back(node->id);
    for (auto& other : nodes) wheel.disarm(&other);
  });
  EXPECT_EQ(count, 1);
  EXPECT_EQ(fired.size(), 1u);
  EXPECT_EQ(wheel.armed_count(), 0);
  EXPECT_EQ(wheel.next_deadline_ns(), kNever);
}

TEST(TimerWheelTest, CallbackReArmingAnotherDueNodeDefersIt) {
  TimerWheel wheel(kStart, 1000, 64);
  auto nodes = make_nodes(2);
  wheel.arm(&nodes[0], kStart + 2'000);
  wheel.arm(&nodes[1], kStart + 2'100);
  std::vector<uint32_t> fired;
  wheel.advance(kStart + 3'000, [&](TimerNode* node) {
    fired.push_back(node->id);
    TimerNode* other = &nodes[1 - node->id];
    if (other->armed()) wheel.arm(other, kStart + 2'500);  // still due, but moved
  });
  EXPECT_EQ(fired.size(), 1u);
  EXPECT_EQ(wheel.armed_count(), 1);
  EXPECT_EQ(expire_ids(wheel, kStart + 3'000).size(), 1u);
}

TEST(TimerWheelTest, NextDeadlineIsExactForNearNodesAndNeverWhenEmpty) {
  TimerWheel wheel(kStart, 1000, 65536);
  auto nodes = make_nodes(3);
  EXPECT_EQ(wheel.next_deadline_ns(), kNever);
  wheel.arm(&nodes[0], kStart + 70'123);
  wheel.arm(&nodes[1], kStart + 20'456);
  wheel.arm(&nodes[2], kStart + 45'789);
  EXPECT_EQ(wheel.next_deadline_ns(), kStart + 20'456);
  EXPECT_EQ(expire_ids(wheel, kStart + 30'000), std::vector<uint32_t>{1});
  EXPECT_EQ(wheel.next_deadline_ns(), kStart + 45'789);
  wheel.disarm(&nodes[2]);
  // Disarming the earliest node leaves a stale lower bound; the wake-up it causes fires
  // nothing and makes the bound exact again.
  EXPECT_EQ(wheel.next_deadline_ns(), kStart + 45'789);
  EXPECT_TRUE(expire_ids(wheel, wheel.next_deadline_ns()).empty());
  EXPECT_EQ(wheel.next_deadline_ns(), kStart + 70'123);
  wheel.arm(&nodes[2], kStart + 60'000);  // an earlier node makes it exact at once
  EXPECT_EQ(wheel.next_deadline_ns(), kStart + 60'000);
  wheel.disarm(&nodes[0]);
  wheel.disarm(&nodes[2]);
  EXPECT_EQ(wheel.next_deadline_ns(), kNever);
}

TEST(TimerWheelTest, NextDeadlineAfterAdvanceLiesAfterNowEvenForFarRounds) {
  // Nodes only many revolutions ahead: the bound may be a tick start, never <= now.
  TimerWheel wheel(kStart, 1000, 64);
  auto nodes = make_nodes(200);
  for (uint32_t i = 0; i < nodes.size(); ++i) wheel.arm(&nodes[i], kStart + 10'000'000 + i * 997);
  const int64_t now = kStart + 5'000;
  expire_ids(wheel, now);
  EXPECT_GT(wheel.next_deadline_ns(), now);
  EXPECT_LE(wheel.next_deadline_ns(), kStart + 10'000'000);
}

// A worker sleeps until next_deadline_ns() and advances to it. Since the answer is a lower
// bound, every node must fire exactly at its deadline. The number of wake-ups measures how
// tight the bound is: about one per node for realistic geometries, more for toy wheels
// whose revolution is far shorter than the deadlines (the scan budget then answers tick
// starts) — those must still terminate.
struct DriveCase {
  int32_t slot_count;
  int64_t tick_ns;
  int64_t spread_ns;
  int node_count;
  int max_wakeups;
};

void drive_by_next_deadline(const DriveCase& drive, uint64_t seed) {
  TimerWheel wheel(kStart, drive.tick_ns, drive.slot_count);
  auto nodes = make_nodes(static_cast<size_t>(drive.node_count));
  std::mt19937_64 rng(seed);
  for (auto& node : nodes) {
    wheel.arm(&node, kStart + 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(drive.spread_ns)));
  }
  int wakeups = 0;
  int fired = 0;
  while (wheel.armed_count() > 0 && wakeups <= drive.max_wakeups) {
    const int64_t now = wheel.next_deadline_ns();
    ++wakeups;
    wheel.advance(now, [&](TimerNode* node) {
      EXPECT_EQ(node->deadline_ns, now) << "node " << node->id << " fired late";
      ++fired;
    });
  }
  EXPECT_EQ(fired, drive.node_count) << "slots " << drive.slot_count;
  EXPECT_LE(wakeups, drive.max_wakeups) << "slots " << drive.slot_count;
}

TEST(TimerWheelTest, WorkerWakingAtNextDeadlineFiresEveryNodeOnTime) {
  drive_by_next_deadline({65536, 1000, 2'000'000, 400, 400}, 1);          // one revolution
  drive_by_next_deadline({65536, 1000, 2'000'000'000, 400, 480}, 2);      // 2 s: 30 rounds
  drive_by_next_deadline({65536, 1000, 2'000'000'000, 5000, 6000}, 3);   // busy worker
  drive_by_next_deadline({64, 1000, 50'000'000, 400, 20'000}, 4);         // 780 rounds
  drive_by_next_deadline({8, 7, 1'000'000, 400, 200'000}, 5);             // 17,857 rounds
}

// Wheels sized by slot_count_for() (a worker's: one timer per connection) stay as tight: a
// one-connection worker's 1,024-slot wheel (2,000 rounds for a 2 s timeout) and a
// 64-connection one's still wake about once per node.
TEST(TimerWheelTest, WheelsSizedForTheirTimersWakeAboutOncePerNode) {
  drive_by_next_deadline({TimerWheel::slot_count_for(1), 1000, 2'000'000'000, 1, 1}, 6);
  drive_by_next_deadline({TimerWheel::slot_count_for(64), 1000, 2'000'000'000, 64, 64}, 7);
  drive_by_next_deadline({TimerWheel::slot_count_for(200), 1000, 2'000'000'000, 200, 240}, 8);
}

TEST(TimerWheelTest, SlotCountGrowsWithTheTimersBetweenItsBounds) {
  EXPECT_EQ(TimerWheel::slot_count_for(0), TimerWheel::kMinSlots);
  EXPECT_EQ(TimerWheel::slot_count_for(1), 1024);
  EXPECT_EQ(TimerWheel::slot_count_for(2), 2048);
  EXPECT_EQ(TimerWheel::slot_count_for(3), 4096);
  EXPECT_EQ(TimerWheel::slot_count_for(50), 65536);
  EXPECT_EQ(TimerWheel::slot_count_for(64), 65536);
  EXPECT_EQ(TimerWheel::slot_count_for(10'000), TimerWheel::kMaxSlots);
  EXPECT_EQ(TimerWheel::slot_count_for(int64_t{1} << 40), TimerWheel::kMaxSlots);
  for (int64_t timers = 1; timers <= 100; ++timers) {
    const int32_t slots = TimerWheel::slot_count_for(timers);
    EXPECT_TRUE(std::has_single_bit(static_cast<uint32_t>(slots))) << timers;
    EXPECT_GE(slots, std::min<int64_t>(timers * TimerWheel::kSlotsPerTimer, TimerWheel::kMaxSlots));
  }
}

// The model: deadlines of armed nodes, scanned in full at every step.
struct ModelConfig {
  int64_t tick_ns;
  int32_t slot_count;
  uint64_t seed;
};

void PrintTo(const ModelConfig& config, std::ostream* out) {
  *out << "tick " << config.tick_ns << " ns, " << config.slot_count << " slots, seed " << config.seed;
}

class TimerWheelModelTest : public ::testing::TestWithParam<ModelConfig> {};

TEST_P(TimerWheelModelTest, RandomArmDisarmAdvanceMatchesBruteForce) {
  const ModelConfig config = GetParam();
  TimerWheel wheel(kStart, config.tick_ns, config.slot_count);
  const int64_t revolution = config.tick_ns * config.slot_count;
  constexpr size_t kNodes = 256;
  auto nodes = make_nodes(kNodes);
  std::vector<std::optional<int64_t>> model(kNodes);
  std::mt19937_64 rng(config.seed);
  auto below = [&](uint64_t n) { return static_cast<int64_t>(rng() % n); };

  // Deadlines: past, this tick, within a revolution, and many revolutions ahead.
  int64_t now = kStart - 3 * config.tick_ns;
  auto random_deadline = [&]() -> int64_t {
    switch (below(6)) {
      case 0: return now - below(5 * static_cast<uint64_t>(config.tick_ns) + 1);
      case 1: return now + below(static_cast<uint64_t>(config.tick_ns) + 1);
      case 2: case 3: return now + below(static_cast<uint64_t>(revolution) + 1);
      default: return now + below(20 * static_cast<uint64_t>(revolution) + 1);
    }
  };
  auto arm = [&](uint32_t id) {
    const int64_t deadline = random_deadline();
    wheel.arm(&nodes[id], deadline);
    model[id] = deadline;
  };
  auto disarm = [&](uint32_t id) {
    wheel.disarm(&nodes[id]);
    model[id].reset();
  };

  expire_ids(wheel, now);  // the wheel's notion of "latest time seen" starts equal to the model's
  int64_t total_expired = 0;
  for (int step = 0; step < 60'000; ++step) {
    const uint32_t id = static_cast<uint32_t>(below(kNodes));
    const int64_t op = below(100);
    if (op < 45) {
      arm(id);
    } else if (op < 60) {
      disarm(id);
    } else {
      int64_t gap = 0;
      switch (below(8)) {
        case 0: gap = 0; break;
        case 1: gap = below(static_cast<uint64_t>(config.tick_ns)); break;
        case 2: case 3: case 4: gap = below(static_cast<uint64_t>(revolution) / 8 + 1); break;
        case 5: gap = below(static_cast<uint64_t>(revolution) + 1); break;
        case 6: gap = revolution + below(3 * static_cast<uint64_t>(revolution)); break;
        default: gap = -below(static_cast<uint64_t>(revolution)); break;  // time going back
      }
      const int64_t requested = now + gap;
      now = std::max(now, requested);

      std::set<uint32_t> due;
      for (uint32_t i = 0; i < kNodes; ++i) {
        if (model[i] && *model[i] <= now) due.insert(i);
      }
      std::set<uint32_t> fired;
      const bool meddle = below(3) == 0;
      const int count = wheel.advance(requested, [&](TimerNode* node) {
        const uint32_t fired_id = node->id;
        EXPECT_FALSE(node->armed());
        EXPECT_TRUE(due.count(fired_id)) << "step " << step << ": node " << fired_id
                                         << " fired but was not due (or already fired)";
        due.erase(fired_id);
        fired.insert(fired_id);
        model[fired_id].reset();
        if (!meddle) return;
        // Callbacks touch the wheel: re-arm self, disarm or re-arm another (maybe due) node.
        const uint32_t other = static_cast<uint32_t>(below(kNodes));
        switch (below(4)) {
          case 0: arm(fired_id); break;
          case 1: disarm(other); due.erase(other); break;
          case 2: arm(other); due.erase(other); break;
          default: break;
        }
      });
      EXPECT_TRUE(due.empty()) << "step " << step << ": " << due.size() << " due nodes missed";
      EXPECT_EQ(count, static_cast<int>(fired.size()));
      total_expired += count;

      int64_t earliest = kNever;
      for (const auto& deadline : model) {
        if (deadline) earliest = std::min(earliest, *deadline);
      }
      const int64_t bound = wheel.next_deadline_ns();
      EXPECT_LE(bound, earliest) << "step " << step;
      if (earliest > now && earliest != kNever) {
        EXPECT_GT(bound, now) << "step " << step;
      }
      if (earliest == kNever) {
        EXPECT_EQ(bound, kNever) << "step " << step;
      }
    }
    const auto armed = std::count_if(model.begin(), model.end(),
                                     [](const auto& deadline) { return deadline.has_value(); });
    ASSERT_EQ(wheel.armed_count(), armed) << "step " << step;
    if (HasFailure()) break;  // one divergence is enough to read
  }
  EXPECT_GT(total_expired, 5'000);  // the sequence really exercised expiry
}

INSTANTIATE_TEST_SUITE_P(
    Geometries, TimerWheelModelTest,
    ::testing::Values(ModelConfig{1000, 65536, 1}, ModelConfig{1000, 1024, 2},
                      ModelConfig{1000, 64, 3}, ModelConfig{7, 8, 4}, ModelConfig{3, 1, 5},
                      ModelConfig{1, 128, 6}),
    [](const ::testing::TestParamInfo<ModelConfig>& param_info) {
      return "Tick" + std::to_string(param_info.param.tick_ns) + "ns" +
             std::to_string(param_info.param.slot_count) + "Slots";
    });

}  // namespace
}  // namespace hammer
