package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeInputStream;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.testkit.RandomBytes;
import org.spongefiles.testkit.SpongeTestConf;

/**
 * Eight tasks writing at once through two server processes whose heap and direct memory are capped:
 * every byte comes back, and the servers' memory stays within its bounds (scaled down here; the
 * full 8 x 2 GiB runs in ServerBench).
 */
@Timeout(300)
class LoadTest {
  private static final int WRITERS = 8;
  private static final long PER_WRITER = 64L << 20;
  private static final int CHUNK = 1 << 20;
  @RegisterExtension final ServerFixture fixture = new ServerFixture();
  private Path stderr;

  @BeforeEach
  void setUp() throws Exception {
    stderr = fixture.tempFile("load", ".err");
  }

  private Configuration serverConf(String node) {
    Configuration conf = fixture.serverConf(node, 1);
    SpongeOptions.CHUNK_SIZE.set(conf, (long) CHUNK);
    SpongeOptions.POOL_SIZE.set(conf, WRITERS * PER_WRITER / 2 + 16L * CHUNK);
    ServerOptions.METRICS_PORT.set(conf, SpongeTestConf.freePort());
    return conf;
  }

  @Test
  void eightWritersThroughTwoMemoryCappedServers() throws Exception {
    List<String> capped = List.of("-Xmx128m", "-XX:MaxDirectMemorySize=64m");
    Configuration confA = serverConf("node-a");
    Configuration confB = serverConf("node-b");
    try (ServerProcess a = ServerProcess.start(confA, stderr, capped, ServerMain.class);
        ServerProcess b = ServerProcess.start(confB, stderr, capped, ServerMain.class)) {
      ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
      List<Future<Long>> results = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        results.add(
            writers.submit(
                () -> {
                  Configuration conf = fixture.clientConf("node-w" + writer, 0);
                  SpongeOptions.CHUNK_SIZE.set(conf, (long) CHUNK);
                  conf.set(SpongeOptions.TIERS.key(), "remote");
                  conf.set(
                      SpongeOptions.REMOTE_SERVERS.key(),
                      writer % 2 == 0
                          ? a.endpoint + "," + b.endpoint
                          : b.endpoint + "," + a.endpoint);
                  try (SpongeTask task = SpongeTask.open(conf, "attempt_load_" + writer)) {
                    SpongeFile file = task.create("load");
                    byte[] written;
                    try (OutputStream out = file.output()) {
                      written = RandomBytes.write(out, writer, PER_WRITER);
                    }
                    try (SpongeInputStream in = file.input()) {
                      assertThat(RandomBytes.read(in, writer).sha256).isEqualTo(written);
                    }
                    return task.stats().bytesWritten(TierKind.REMOTE);
                  }
                }));
      }
      for (Future<Long> result : results) {
        assertThat(result.get()).isEqualTo(PER_WRITER);
      }
      writers.shutdown();
      for (Configuration conf : List.of(confA, confB)) {
        String metrics = Scrape.get(conf.getInt(ServerOptions.METRICS_PORT.key(), 0), "/metrics");
        double heap = Scrape.value(metrics, "jvm_memory_used_bytes{area=\"heap\"}");
        double direct = Scrape.value(metrics, "jvm_buffer_pool_used_bytes{pool=\"direct\"}");
        assertThat(heap).isLessThan(128.0 * (1 << 20));
        assertThat(direct).as("direct memory").isLessThanOrEqualTo(64.0 * (1 << 20));
        assertThat(Scrape.value(metrics, "sponge_server_written_bytes_total")).isGreaterThan(0);
      }
    }
  }
}
