package org.spongefiles.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.core.config.ConfigCheck;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.config.ConfigValues;
import org.spongefiles.core.config.ParsedConfig;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;

/** Bad configuration stops a task at start with the key, the value and the reason. */
class ConfigValidationTest {
  private Path poolDir;
  private Path diskDir;

  @BeforeEach
  void setUp() {
    poolDir = TestDirs.newShmDir("cv-pool");
    diskDir = TestDirs.newShmDir("cv-disk");
  }

  @AfterEach
  void tearDown() {
    TestDirs.deleteTree(poolDir);
    TestDirs.deleteTree(diskDir);
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "sponge.chunk.size|12x|not a byte size",
        "sponge.chunk.size|1k|must be between 64k and 256m",
        "sponge.tiers|pool,tape|'tape' is not one of [pool, remote, disk, dfs]",
        "sponge.tiers|disk,disk|'disk' appears twice",
        "sponge.write.buffers|0|must be between 1 and 1024",
        "sponge.io.threads|many|not a valid int",
        "sponge.pool.checksum|yes|must be true or false",
        "sponge.pool.lock.timeout|5 fortnights|unknown unit",
        "sponge.pool.permissions|rwxrwxrwxx|must be nine characters like rw-rw----",
        "sponge.disk.reserve|-5|a size cannot be negative",
        "sponge.checksum.block.size|48k|must divide the chunk size 64k",
      })
  void invalidValuesAreRefusedAtOpen(String key, String value, String reason) {
    Configuration conf = SpongeTestConf.of(poolDir, diskDir, 1 << 20, 64 << 10);
    conf.set(key, value);
    assertThatThrownBy(() -> SpongeTask.open(conf, "attempt_cv"))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(
            "Invalid value "
                + (key.equals("sponge.checksum.block.size") ? "48k" : value)
                + " for configuration "
                + key
                + ": ")
        .hasMessageContaining(reason);
  }

  @Test
  void valuesParsedWithoutAllOfSpongeCoresKeysAreRefusedAtOpen() {
    Configuration conf = SpongeTestConf.of(poolDir, diskDir, 1 << 20, 64 << 10);
    ParsedConfig withoutClusterKeys = ConfigCheck.validate(conf, new SpongeOptions());
    assertThatThrownBy(() -> SpongeTask.open(withoutClusterKeys, conf, "attempt_cv"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "The values lack the keys of '"
                + new ClusterOptions().title()
                + "': parse them with SpongeTask.parse");
    assertThat(TestDirs.countFiles(poolDir)).as("no pool opened").isZero();
  }

  @Test
  void aMissingPoolDirectoryIsNamedWithItsKey() {
    Configuration conf = SpongeTestConf.of(poolDir.resolve("nope"), diskDir, 1 << 20, 64 << 10);
    assertThatThrownBy(() -> SpongeTask.open(conf, "attempt_cv"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("sponge.pool.dir=" + poolDir.resolve("nope"))
        .hasMessageContaining("does not exist");
  }

  @Test
  void aPoolThatIsNotThereYetIsSkippedWhenTasksMayNotCreateIt() throws Exception {
    Configuration conf = SpongeTestConf.of(poolDir, diskDir, 1 << 20, 64 << 10);
    SpongeOptions.POOL_CREATE.set(conf, false);
    try (SpongeTask task = SpongeTask.open(conf, "attempt_cv")) {
      assertThat(task.tiers().toString()).isEqualTo("disk");
    }
  }

  @Test
  void theChunkSizeOfAnExistingPoolWins() throws Exception {
    Configuration small = SpongeTestConf.of(poolDir, diskDir, 1 << 20, 64 << 10);
    Configuration large = SpongeTestConf.of(poolDir, diskDir, 1 << 20, 128 << 10);
    try (SpongeTask first = SpongeTask.open(small, "attempt_a");
        SpongeTask second = SpongeTask.open(large, "attempt_b")) {
      assertThat(second.chunkSize()).isEqualTo(64 << 10);
    }
  }

  @Test
  void diskDirectoriesDefaultToHadoopsLocalDirectories() {
    Configuration conf = new Configuration(false);
    conf.set("mapreduce.cluster.local.dir", "/data/1/yarn,/data/2/yarn");
    assertThat(SpongeSettings.diskDirs(ConfigValues.reading(conf), conf))
        .containsExactly(Path.of("/data/1/yarn/spongefiles"), Path.of("/data/2/yarn/spongefiles"));
    Configuration tmpOnly = new Configuration(false);
    tmpOnly.set("hadoop.tmp.dir", "/scratch");
    assertThat(SpongeSettings.diskDirs(ConfigValues.reading(tmpOnly), tmpOnly))
        .containsExactly(Path.of("/scratch/spongefiles"));
  }
}
