package org.spongefiles.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.log4j.Logger;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.testkit.CapturedLog;

/** One check of a configuration at the edge: bad values, keys declared twice, misspelt keys. */
class ConfigCheckTest {

  @Test
  void aMisspeltKeyIsWarnedOnceNamingTheNearestKnownKey() {
    Configuration conf = new Configuration(false);
    conf.set("sponge.pool.szie", "64m");
    conf.set(SpongeOptions.POOL_SIZE.key(), "128m");
    CapturedLog captured = new CapturedLog();
    Logger logger = Logger.getLogger(ConfigCheck.class);
    logger.addAppender(captured);
    try {
      ConfigCheck.validate(conf, new SpongeOptions(), new ClusterOptions());
      ConfigCheck.validate(conf, new SpongeOptions(), new ClusterOptions());
    } finally {
      logger.removeAppender(captured);
    }
    assertThat(captured.messages)
        .containsExactly(
            "Unknown configuration key sponge.pool.szie (value 64m) is ignored; did you mean"
                + " sponge.pool.size?");
  }

  @Test
  void keysOfModulesAbsentFromTheProcessAreNotJudged() {
    Configuration conf = new Configuration(false);
    conf.set("sponge.pig.bag.memroy", "0.2");
    conf.set("sponge.server.threds", "4");
    conf.set("sponge.tierz", "disk");
    conf.set(SpongeOptions.CHUNK_SIZE.key(), "1m");
    ConfigCheck.Known coreOnly =
        new ConfigCheck.Known(List.of(new SpongeOptions(), new ClusterOptions()));
    assertThat(ConfigCheck.unknownKeys(conf, coreOnly))
        .containsExactly(
            "Unknown configuration key sponge.tierz (value disk) is ignored; did you mean"
                + " sponge.tiers?");
  }

  @Test
  void validateReturnsTheParsedValuesOfItsSetsOnly() {
    Configuration conf = new Configuration(false);
    conf.set(SpongeOptions.CHUNK_SIZE.key(), "1m");
    conf.set(SpongeOptions.TIERS.key(), " disk , pool ");
    ParsedConfig parsed = ConfigCheck.validate(conf, new SpongeOptions());
    conf.set(SpongeOptions.CHUNK_SIZE.key(), "2m");

    assertThat(parsed.get(SpongeOptions.CHUNK_SIZE)).isEqualTo(1L << 20);
    assertThat(parsed.get(SpongeOptions.TIERS)).containsExactly("disk", "pool");
    assertThat(parsed.get(SpongeOptions.WRITE_BUFFERS))
        .isEqualTo(SpongeOptions.WRITE_BUFFERS.defaultValue());
    assertThat(parsed.has(ClusterOptions.ZOOKEEPER_QUORUM)).isFalse();
    assertThatThrownBy(() -> parsed.get(ClusterOptions.ZOOKEEPER_QUORUM))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Configuration key sponge.zookeeper.quorum was not parsed here");
  }

  @Test
  void aKeyDeclaredTwiceIsRejectedNamingBothSets() {
    OptionSet again = set("again: a second home", SpongeOptions.POOL_SIZE);
    assertThatThrownBy(
            () -> ConfigCheck.validate(new Configuration(false), new SpongeOptions(), again))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("sponge.pool.size is declared twice")
        .hasMessageContaining("again: a second home");
  }

  @Test
  void aBadValueFailsNamingTheKey() {
    Configuration conf = new Configuration(false);
    conf.set(SpongeOptions.IO_THREADS.key(), "many");
    assertThatThrownBy(() -> ConfigCheck.validate(conf, new SpongeOptions()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("sponge.io.threads");
  }

  @Test
  void theRuleAcrossASetsKeysIsCheckedWithTheKeysWhoeverValidates() {
    Configuration conf = new Configuration(false);
    conf.set(SpongeOptions.CHUNK_SIZE.key(), "100k");
    conf.set(SpongeOptions.CHECKSUM_BLOCK_SIZE.key(), "64k");
    assertThatThrownBy(() -> ConfigCheck.validate(conf, new SpongeOptions()))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "Invalid value 64k for configuration sponge.checksum.block.size: must divide the"
                + " chunk size 100k (sponge.chunk.size)");
    conf.set(SpongeOptions.CHUNK_SIZE.key(), "128k");
    assertThat(ConfigCheck.validate(conf, new SpongeOptions()).get(SpongeOptions.CHUNK_SIZE))
        .isEqualTo(128L << 10);
  }

  @Test
  void editDistanceCountsSingleCharacterEdits() {
    assertThat(ConfigCheck.editDistance("sponge.pool.szie", "sponge.pool.size")).isEqualTo(2);
    assertThat(ConfigCheck.editDistance("", "abc")).isEqualTo(3);
    assertThat(ConfigCheck.editDistance("kitten", "sitting")).isEqualTo(3);
  }

  private static OptionSet set(String title, ConfigOption<?> option) {
    return new OptionSet() {
      @Override
      public String title() {
        return title;
      }

      @Override
      public String summary() {
        return "";
      }

      @Override
      public List<ConfigOption<?>> options() {
        return List.of(option);
      }
    };
  }
}
