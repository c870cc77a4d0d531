package org.spongefiles.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.SpongeOptions;

class ConfigOptionTest {

  @Test
  void byteSizesTakeBinarySuffixes() {
    assertThat(ByteSize.parse("512")).isEqualTo(512);
    assertThat(ByteSize.parse("64k")).isEqualTo(65536);
    assertThat(ByteSize.parse("1M")).isEqualTo(1 << 20);
    assertThat(ByteSize.parse(" 2gb ")).isEqualTo(2L << 30);
    assertThat(ByteSize.format(1 << 20)).isEqualTo("1m");
    assertThat(ByteSize.format(1536)).isEqualTo("1536");
    assertThat(ByteSize.format(3L << 40)).isEqualTo("3t");
    assertThatThrownBy(() -> ByteSize.parse("1x")).hasMessageContaining("not a byte size");
    assertThatThrownBy(() -> ByteSize.parse("99999999999p")).hasMessageContaining("too large");
  }

  @Test
  void durationsTakeUnits() {
    assertThat(Durations.parse("250")).isEqualTo(Duration.ofMillis(250));
    assertThat(Durations.parse("5s")).isEqualTo(Duration.ofSeconds(5));
    assertThat(Durations.parse("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(Durations.format(Duration.ofSeconds(90))).isEqualTo("90s");
    assertThat(Durations.format(Duration.ofHours(2))).isEqualTo("2h");
    assertThatThrownBy(() -> Durations.parse("soon")).hasMessageContaining("not a duration");
  }

  @Test
  void unsetAndBlankKeysGiveTheDefault() {
    Configuration conf = new Configuration(false);
    assertThat(SpongeOptions.CHUNK_SIZE.get(conf)).isEqualTo(1L << 20);
    conf.set(SpongeOptions.CHUNK_SIZE.key(), "  ");
    assertThat(SpongeOptions.CHUNK_SIZE.get(conf)).isEqualTo(1L << 20);
    conf.set(SpongeOptions.CHUNK_SIZE.key(), "2m");
    assertThat(SpongeOptions.CHUNK_SIZE.get(conf)).isEqualTo(2L << 20);
  }

  @Test
  void badValuesNameTheKeyAndTheValue() {
    Configuration conf = new Configuration(false);
    SpongeOptions.IO_THREADS.set(conf, 0);
    assertThatThrownBy(() -> SpongeOptions.IO_THREADS.get(conf))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "Invalid value 0 for configuration sponge.io.threads: must be between 1 and 256")
        .satisfies(
            e -> {
              assertThat(((ConfigException) e).key()).isEqualTo("sponge.io.threads");
              assertThat(((ConfigException) e).value()).isEqualTo("0");
            });
  }

  @Test
  void setWritesTheTextualFormBack() {
    Configuration conf = new Configuration(false);
    SpongeOptions.POOL_LOCK_TIMEOUT.set(conf, Duration.ofSeconds(3));
    SpongeOptions.TIERS.set(conf, List.of("disk", "dfs"));
    assertThat(conf.get(SpongeOptions.POOL_LOCK_TIMEOUT.key())).isEqualTo("3s");
    assertThat(SpongeOptions.TIERS.get(conf)).containsExactly("disk", "dfs");
  }

  @Test
  void anInvalidDefaultIsAProgrammingError() {
    assertThatThrownBy(() -> ConfigOption.integer("x.y", 0).validate(Validator.between(1, 2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("default of x.y is invalid");
  }
}
