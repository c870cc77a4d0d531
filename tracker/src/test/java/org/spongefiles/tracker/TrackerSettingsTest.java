package org.spongefiles.tracker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.testkit.CountingConfiguration;

/** The tracker reads its configuration once, into typed settings, and checks its rules there. */
class TrackerSettingsTest {

  private static Configuration trackerConf() {
    Configuration conf = new Configuration(false);
    conf.set("sponge.zookeeper.quorum", "127.0.0.1:2181");
    conf.set("sponge.node.id", "tracker-a");
    conf.setInt("sponge.tracker.port", 7171);
    conf.set("sponge.tracker.poll.interval", "250ms");
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
    assertThat(settings.pollIntervalMillis).isEqualTo(250);
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
}
