package org.spongefiles.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.testkit.CountingConfiguration;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;

/**
 * Opening a task parses each {@code sponge.*} key once: the settings, the identity and every tier
 * are built from the values {@link org.spongefiles.core.config.ConfigCheck} parsed.
 */
class OpenParsesOnceTest {
  private Path poolDir;
  private Path diskDir;

  @BeforeEach
  void setUp() {
    poolDir = TestDirs.newShmDir("once-pool");
    diskDir = TestDirs.newShmDir("once-disk");
  }

  @AfterEach
  void tearDown() {
    TestDirs.deleteTree(poolDir);
    TestDirs.deleteTree(diskDir);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "pool,disk||",
        "pool,remote,disk|127.0.0.1:1|",
        "pool,remote,disk||127.0.0.1:1",
      })
  void eachKeyIsReadAtMostOnce(String tiers, String servers, String trackers) throws Exception {
    CountingConfiguration conf =
        new CountingConfiguration(SpongeTestConf.of(poolDir, diskDir, 1 << 20, 64 << 10));
    conf.set(SpongeOptions.TIERS.key(), tiers);
    if (servers != null) {
      conf.set(SpongeOptions.REMOTE_SERVERS.key(), servers);
    }
    if (trackers != null) {
      conf.set(ClusterOptions.TRACKER_ADDRESSES.key(), trackers);
    }

    try (SpongeTask task = SpongeTask.open(conf, "attempt_once_r_000000_0")) {
      assertThat(conf.readMoreThanOnce()).isEmpty();
      assertThat(conf.reads(SpongeOptions.CHUNK_SIZE.key())).isEqualTo(1);
      assertThat(conf.reads(SpongeOptions.TIERS.key())).isEqualTo(1);
      assertThat(task.chunkSize()).isEqualTo(64 << 10);
    }
  }
}
