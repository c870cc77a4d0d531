package org.spongefiles.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.NetUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.config.ConfigCheck;

/** A task's rack the way HDFS and YARN find it: Hadoop's topology script of the host's name. */
class RackResolverTest {
  @TempDir Path dir;

  /** A topology script as Hadoop runs it: host names in, one rack per host out. */
  private Path script(String body) throws Exception {
    Path script = dir.resolve("topology.sh");
    Files.writeString(script, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return script;
  }

  @Test
  void theTopologyScriptMapsTheHostName() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set(
        "net.topology.script.file.name", script("for h; do echo /rack-of-$h; done").toString());
    SpongeOptions.NODE_ID.set(conf, "node-a");

    RackResolver.Rack rack = resolve(conf, "worker7.example.org");

    assertThat(rack.name()).isEqualTo("/rack-of-worker7.example.org");
    assertThat(rack.known()).isTrue();
    assertThat(rack.origin()).contains("net.topology.script.file.name=").contains("worker7");
  }

  @Test
  void thisNodeIsResolvedByItsHostNameNotBySpongeNodeId() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set(
        "net.topology.script.file.name", script("for h; do echo /rack-of-$h; done").toString());
    SpongeOptions.NODE_ID.set(conf, "node-a");

    RackResolver.Rack rack = resolve(conf, RackResolver.thisHost());

    // Hadoop hands the script the host's address when it resolves, as it does for HDFS and YARN.
    assertThat(rack.name())
        .isEqualTo("/rack-of-" + NetUtils.normalizeHostName(RackResolver.thisHost()));
    assertThat(rack.name()).doesNotContain("node-a");
  }

  @Test
  void spongeRackWinsOverTheTopology() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("net.topology.script.file.name", script("echo /elsewhere").toString());
    ClusterOptions.RACK.set(conf, "/rack-1");

    RackResolver.Rack rack = resolve(conf, "h");

    assertThat(rack.name()).isEqualTo("/rack-1");
    assertThat(rack.known()).isTrue();
    assertThat(rack.origin()).isEqualTo("sponge.rack=/rack-1");
  }

  @Test
  void withoutRackOrScriptTheRackIsHadoopsDefaultAndSaysWhy() {
    RackResolver.Rack rack = resolve(new Configuration(false), "h");

    assertThat(rack.name()).isEqualTo("/default-rack");
    assertThat(rack.known()).isFalse();
    assertThat(rack.origin())
        .isEqualTo(
            "sponge.rack and net.topology.script.file.name are not set, so host h is in"
                + " Hadoop's /default-rack");
  }

  @Test
  void aScriptThatDoesNotKnowTheHostLeavesTheRackUnknown() throws Exception {
    Configuration conf = new Configuration(false);
    Path script = script("for h; do echo /default-rack; done");
    conf.set("net.topology.script.file.name", script.toString());

    RackResolver.Rack rack = resolve(conf, "stranger");

    assertThat(rack.name()).isEqualTo("/default-rack");
    assertThat(rack.known()).isFalse();
    assertThat(rack.origin())
        .contains("net.topology.script.file.name=" + script)
        .contains("gave no rack for host stranger");
  }

  /** The rack of {@code host}, with {@code sponge.rack} parsed as a task or daemon does. */
  private static RackResolver.Rack resolve(Configuration conf, String host) {
    return RackResolver.resolve(ConfigCheck.validate(conf, new ClusterOptions()), conf, host);
  }
}
