// SPDX-License-Identifier: MIT
// The reference .hgrm: decodes an HdrHistogram V2 base64 string ("HISTF...") with the Java
// HdrHistogram library (Debian's libhdrhistogram-java) and prints its percentile distribution
// as hammer's .hgrm is defined to be: 5 ticks per half distance, ns scaled to ms.
// Usage: java -cp /usr/share/java/hdrhistogram.jar HgrmReference.java BASE64
import java.nio.ByteBuffer;
import java.util.Base64;
import org.HdrHistogram.Histogram;

public class HgrmReference {
  public static void main(String[] args) throws Exception {
    byte[] bytes = Base64.getDecoder().decode(args[0]);
    Histogram histogram = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0);
    histogram.outputPercentileDistribution(System.out, 5, 1e6);
  }
}
