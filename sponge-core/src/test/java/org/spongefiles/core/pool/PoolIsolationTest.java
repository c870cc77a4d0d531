package org.spongefiles.core.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.SpongeSettings;
import org.spongefiles.core.config.ConfigValues;
import org.spongefiles.testkit.TestDirs;

/**
 * The local pool's isolation model, proven with two OS users: with the default name and permissions
 * each user's pool is its own (its name carries the user) and its files are 0600, so another user,
 * here {@code nobody} through {@code setpriv}, can neither read nor write a chunk of it, even in a
 * world-writable pool directory like /dev/shm.
 */
class PoolIsolationTest {
  private Path dir;

  @BeforeEach
  void setUp() throws IOException {
    dir = TestDirs.newShmDir("isolation");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
  }

  @AfterEach
  void tearDown() {
    TestDirs.deleteTree(dir);
  }

  /** Runs {@code command} as {@code nobody}; returns its exit status and output. */
  private static String asNobody(String... command) throws Exception {
    List<String> full = new ArrayList<>(List.of("setpriv", "--reuid", "nobody", "--regid"));
    full.addAll(List.of("nogroup", "--clear-groups", "--"));
    full.addAll(List.of(command));
    return run(full);
  }

  /** Runs {@code command}; returns its exit status and output. */
  private static String run(List<String> command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return process.exitValue() + " " + output.trim();
  }

  @Test
  void anotherUserCannotReadOrWriteThePoolsChunks() throws Exception {
    assumeThat(System.getProperty("user.name")).as("setpriv needs root").isEqualTo("root");
    Configuration conf = new Configuration(false);
    SpongeOptions.POOL_DIR.set(conf, dir.toString());
    conf.set(SpongeOptions.POOL_SIZE.key(), "1m");
    conf.set(SpongeOptions.CHUNK_SIZE.key(), "64k");
    PoolSpec spec = SpongeSettings.poolSpec(ConfigValues.reading(conf));
    assertThat(spec.name()).isEqualTo("sponge-pool-root");
    byte[] secret = "the chunk of user root".getBytes(StandardCharsets.UTF_8);
    try (SharedPool pool = SharedPool.open(spec)) {
      ChunkOwner owner = ChunkOwner.of(pool.leases().processLease(), "attempt_iso");
      PoolChunk chunk = pool.allocate(owner, 1).get(0);
      ByteBuffer target = pool.chunkBuffer(chunk.index());
      target.put(secret);

      List<Path> files;
      try (Stream<Path> listing = Files.list(dir)) {
        files =
            listing
                .filter(f -> f.getFileName().toString().startsWith(spec.name()))
                .collect(Collectors.toList());
      }
      assertThat(files).hasSizeGreaterThanOrEqualTo(2); // metadata and at least one segment
      for (Path file : files) {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
            .as(file.toString())
            .isEqualTo("rw-------");
        assertThat(asNobody("head", "-c", "64", file.toString()))
            .as("nobody reads " + file)
            .doesNotStartWith("0 ")
            .contains("Permission denied");
        assertThat(asNobody("sh", "-c", "echo x >> " + file))
            .as("nobody writes " + file)
            .doesNotStartWith("0 ")
            .contains("Permission denied");
      }
      String asRoot = run(List.of("grep", "-rl", "the chunk of user root", dir.toString()));
      assertThat(asRoot).as("the chunk is in the files").startsWith("0 ").contains(spec.name());
      String asOther = asNobody("grep", "-rl", "the chunk of user root", dir.toString());
      assertThat(asOther.substring(2).lines())
          .as("nobody finds no file with the chunk, only files it may not open")
          .allMatch(line -> line.contains("Permission denied"));
    }
  }
}
