package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.ChunkInfo;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeInputStream;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.testkit.RandomBytes;

/**
 * A file's chunks written behind are stored by as many I/O threads at once as the task has: while
 * one chunk waits on a server's answer, the next one is already on its way (here over a second
 * connection to a server process stopped with SIGSTOP, whose kernel still accepts connections).
 * Every byte reads back and every chunk lands on the server.
 */
@Timeout(120)
class ConcurrentStoresTest {
  private static final int CHUNK = ServerFixture.CHUNK;
  private static final int CHUNKS = 6;

  @RegisterExtension final ServerFixture fixture = new ServerFixture();
  private Path stderr;

  @BeforeEach
  void setUp() throws Exception {
    stderr = fixture.tempFile("concurrent-stores", ".err");
  }

  @Test
  void twoChunksOfOneFileAreStoredAtOnce() throws Exception {
    try (ServerProcess server = ServerProcess.start(fixture.serverConf("node-a", 64), stderr)) {
      int port = Integer.parseInt(server.endpoint.substring(server.endpoint.lastIndexOf(':') + 1));
      Configuration conf = fixture.clientConf("node-x", 0);
      conf.set(SpongeOptions.REMOTE_SERVERS.key(), server.endpoint);
      SpongeOptions.WRITE_BUFFERS.set(conf, 4);
      SpongeOptions.IO_THREADS.set(conf, 2);
      try (SpongeTask task = SpongeTask.open(conf, "attempt_concurrent_1")) {
        // Opens the task's session with the server and leaves one idle connection.
        SpongeFile warm = task.create("warm");
        try (OutputStream out = warm.output()) {
          out.write(RandomBytes.array(1, CHUNK));
        }
        assertThat(connectionsTo(port)).as("connections after the first file").isEqualTo(1);

        byte[] data = RandomBytes.array(2, CHUNKS * CHUNK);
        SpongeFile file = task.create("spill");
        OutputStream out = file.output();
        server.signal("STOP");
        try {
          out.write(data, 0, 3 * CHUNK); // seals chunks 0 and 1: two stores, both waiting
          Awaitility.await()
              .atMost(Duration.ofSeconds(5))
              .pollInterval(Duration.ofMillis(20))
              .untilAsserted(
                  () ->
                      assertThat(connectionsTo(port))
                          .as("the idle connection and a second one for the next chunk")
                          .isEqualTo(2));
        } finally {
          server.signal("CONT");
        }
        out.write(data, 3 * CHUNK, data.length - 3 * CHUNK);
        out.close();

        try (SpongeInputStream in = file.input()) {
          assertThat(in.readAllBytes()).as("every byte back").isEqualTo(data);
        }
        assertThat(file.chunks()).hasSize(CHUNKS);
        assertThat(file.chunks().stream().map(ChunkInfo::tier).distinct())
            .containsExactly(TierKind.REMOTE);
        warm.delete();
        file.delete();
      }
    }
  }

  /** Established TCP connections of this host whose remote end is {@code port} on loopback. */
  private static long connectionsTo(int port) throws IOException {
    String remote = String.format(Locale.ROOT, ":%04X", port);
    long count = 0;
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      Path path = Path.of(table);
      if (!Files.exists(path)) {
        continue;
      }
      for (String line : Files.readAllLines(path)) {
        String[] fields = line.trim().split("\\s+");
        // sl local_address rem_address st ...; st 01 is ESTABLISHED
        if (fields.length > 3 && fields[2].endsWith(remote) && fields[3].equals("01")) {
          count++;
        }
      }
    }
    return count;
  }
}
