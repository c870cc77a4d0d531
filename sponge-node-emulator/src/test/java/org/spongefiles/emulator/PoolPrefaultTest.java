package org.spongefiles.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.testkit.TestDirs;

/**
 * The pool a benchmark prefaults from outside the task's container is allocated whole, so no page
 * of it is left for the task to touch first (and be charged for). A 512m pool is long enough a loop
 * for the JIT to compile it, which once dropped the touching store.
 */
class PoolPrefaultTest {
  private static final long POOL = 512L << 20;

  private Path dir;

  @BeforeEach
  void setUp() throws Exception {
    dir = TestDirs.newShmDir("prefault");
  }

  @AfterEach
  void tearDown() {
    TestDirs.deleteTree(dir);
  }

  @Test
  void everyPageOfTheNewPoolIsAllocated() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("sponge.pool.dir", dir.toString());
    conf.set("sponge.pool.size", Long.toString(POOL));
    conf.set("sponge.pool.permissions", "rw-------");

    assertThat(PoolPrefault.prefault(conf)).isEqualTo(POOL);

    long allocated = TestDirs.allocatedBytes(dir);
    assertThat(allocated).as("bytes allocated to the pool's files").isGreaterThanOrEqualTo(POOL);
    assertThat(Files.readAllLines(Path.of("/proc/self/maps")))
        .as("this JVM keeps no mapping of the pool, which would keep its pages once deleted")
        .noneMatch(line -> line.contains(dir.toString()));
  }
}
