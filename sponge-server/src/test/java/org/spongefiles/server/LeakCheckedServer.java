package org.spongefiles.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.spongefiles.daemon.DaemonArguments;

/**
 * A sponge server with Netty's paranoid leak detection and a detector that counts every leak it
 * reports. It answers {@code check} on standard input with {@code LEAKS <count>} after making the
 * garbage collector surface any leaked buffer.
 */
public final class LeakCheckedServer {
  private static final AtomicInteger LEAKS = new AtomicInteger();

  public static void main(String[] args) throws Exception {
    // Before any buffer class exists: every ByteBuf is tracked, every leak is counted.
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(
        new ResourceLeakDetectorFactory() {
          @Override
          @SuppressWarnings("deprecation")
          public <T> ResourceLeakDetector<T> newResourceLeakDetector(
              Class<T> resource, int samplingInterval, long maxActive) {
            return new ResourceLeakDetector<T>(resource, samplingInterval) {
              @Override
              protected void reportTracedLeak(String resourceType, String records) {
                LEAKS.incrementAndGet();
                System.err.println("LEAK " + resourceType + records);
              }

              @Override
              protected void reportUntracedLeak(String resourceType) {
                LEAKS.incrementAndGet();
                System.err.println("LEAK " + resourceType);
              }
            };
          }
        });
    SpongeServer server = SpongeServer.start(DaemonArguments.parse(Arrays.asList(args)));
    System.out.println("READY " + server.endpoint());
    System.out.flush();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      if (line.equals("check")) {
        for (int round = 0; round < 5; round++) {
          System.gc();
          Thread.sleep(100);
          // Leaks are reported when a new buffer is tracked after the leaked one was collected.
          for (int i = 0; i < 100; i++) {
            ByteBuf probe = PooledByteBufAllocator.DEFAULT.directBuffer(16);
            probe.release();
          }
        }
        System.out.println("LEAKS " + LEAKS.get());
        System.out.flush();
      }
    }
    server.close();
  }
}
