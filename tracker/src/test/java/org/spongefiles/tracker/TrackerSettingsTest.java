package org.spongefiles.tracker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.log4j.Logger;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.config.ConfigCheck;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.config.ConfigOption;
import org.spongefiles.testkit.CapturedLog;
import org.spongefiles.testkit.CountingConfiguration;

/** The tracker reads its configuration once, into typed settings, and checks its rules there. */
class TrackerSettingsTest {

  private static Configuration trackerConf() {
    Configuration conf = new Configuration(false);
    conf.set("sponge.zookeeper.quorum", "127.0.0.1:2181");
    conf.set("sponge.node.id", "tracker-a");
    conf.setInt("sponge.tracker.port", 7171);
    TrackerOptions.LEADER_CHECK_INTERVAL.set(conf, Duration.ofMillis(250));
    conf.set("sponge.tracker.nearly.full", "0.1");
    conf.setBoolean("sponge.auth.none", true);
    return conf;
  }

  @Test
  void everyKeyIsReadOnceAndTyped() {
    CountingConfiguration conf = new CountingConfiguration(trackerConf());

    TrackerSettings settings = TrackerSettings.of(conf);

    assertThat(conf.readMoreThanOnce()).isEmpty();
    assertThat(conf.reads("sponge.zookeeper.quorum")).isEqualTo(1);
    assertThat(settings.endpoint).isEqualTo("tracker-a:7171");
    assertThat(settings.leaderCheckIntervalMillis).isEqualTo(250);
    assertThat(settings.nearlyFull).isEqualTo(0.1);
    assertThat(settings.secret).isNull();
    assertThat(settings.zookeeper.layout().leaderLatch()).isEqualTo("/spongefiles/tracker/leader");
  }

  @Test
  void withoutAQuorumTheTrackerNamesTheKey() {
    Configuration conf = trackerConf();
    conf.unset("sponge.zookeeper.quorum");

    assertThatThrownBy(() -> TrackerSettings.of(conf))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "Invalid value (empty) for configuration sponge.zookeeper.quorum: the tracker elects"
                + " its leader in ZooKeeper");
  }

  @Test
  void aBadPoolKeyDoesNotStopTheTracker() {
    Configuration conf = trackerConf();
    conf.set("sponge.chunk.size", "lots");

    assertThat(TrackerSettings.of(conf).port).isEqualTo(7171);
  }

  @Test
  void theOldPollKeysStillWorkWithAWarningNamingTheNewKeys() {
    Configuration conf = trackerConf();
    conf.unset(TrackerOptions.LEADER_CHECK_INTERVAL.key());
    conf.set("sponge.tracker.poll.interval", "300ms");
    conf.set("sponge.tracker.poll.timeout", "120ms");
    CapturedLog options = new CapturedLog();
    CapturedLog unknown = new CapturedLog();
    Logger.getLogger(ConfigOption.class).addAppender(options);
    Logger.getLogger(ConfigCheck.class).addAppender(unknown);
    TrackerSettings settings;
    try {
      settings = TrackerSettings.of(conf);
    } finally {
      Logger.getLogger(ConfigOption.class).removeAppender(options);
      Logger.getLogger(ConfigCheck.class).removeAppender(unknown);
    }

    assertThat(settings.leaderCheckIntervalMillis).isEqualTo(300);
    assertThat(settings.leaderCheckTimeoutMillis).isEqualTo(120);
    assertThat(options.messages)
        .containsExactly(
            "Configuration key sponge.tracker.poll.interval is deprecated; use"
                + " sponge.tracker.leader.check.interval (value 300ms taken)",
            "Configuration key sponge.tracker.poll.timeout is deprecated; use"
                + " sponge.tracker.leader.check.timeout (value 120ms taken)");
    assertThat(unknown.messages).noneMatch(m -> m.contains("poll"));
  }

  @Test
  void theNewKeyWinsOverItsOldName() {
    Configuration conf = trackerConf();
    conf.set("sponge.tracker.poll.interval", "2s");
    CapturedLog options = new CapturedLog();
    Logger.getLogger(ConfigOption.class).addAppender(options);
    TrackerSettings settings;
    try {
      settings = TrackerSettings.of(conf);
    } finally {
      Logger.getLogger(ConfigOption.class).removeAppender(options);
    }

    assertThat(settings.leaderCheckIntervalMillis).isEqualTo(250);
    assertThat(options.messages)
        .containsExactly(
            "Configuration key sponge.tracker.poll.interval is deprecated and ignored (value 2s):"
                + " sponge.tracker.leader.check.interval is set (value 250ms)");
  }

  @Test
  void aBadValueUnderTheOldNameNamesTheOldKey() {
    Configuration conf = trackerConf();
    conf.set("sponge.tracker.poll.timeout", "forever");

    assertThatThrownBy(() -> TrackerSettings.of(conf))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(
            "Invalid value forever for configuration sponge.tracker.poll.timeout");
  }
}
