package org.spongefiles.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.testkit.CapturedLog;

/**
 * The node's final {@code sponge.*} keys, read from a real configuration directory, win over a
 * task's own values; its other keys do not.
 */
class NodeFinalKeysTest {
  @TempDir Path confDir;

  @Test
  void finalSpongeKeysWinNonFinalAndOtherKeysDoNot() throws IOException {
    write(
        "mapred-site.xml",
        property("sponge.pool.dir", "/node/pool", true)
            + property("sponge.pool.size", "96m", true)
            + property("sponge.pool.name", "node-pool", false)
            + property("mapreduce.task.io.sort.mb", "7", true));
    Configuration job = new Configuration(false);
    job.set("sponge.pool.dir", "/job/pool");
    job.set("sponge.pool.name", "job-pool");
    job.set("sponge.chunk.size", "1m");
    job.set("mapreduce.task.io.sort.mb", "100");

    NodeFinalKeys node = NodeFinalKeys.of(confDir);
    CapturedLog log = new CapturedLog(Level.INFO);
    Logger logger = Logger.getLogger(NodeFinalKeys.class);
    logger.addAppender(log);
    Configuration merged;
    try {
      merged = node.over(job);
      node.over(job);
    } finally {
      logger.removeAppender(log);
    }
    ParsedConfig values = ConfigCheck.validate(merged, new SpongeOptions());

    Path mapredSite = confDir.resolve("mapred-site.xml");
    assertThat(node.values())
        .containsExactly(
            Map.entry("sponge.pool.dir", "/node/pool"), Map.entry("sponge.pool.size", "96m"));
    assertThat(node.sources())
        .containsOnly(
            Map.entry("sponge.pool.dir", mapredSite), Map.entry("sponge.pool.size", mapredSite));
    assertThat(values.get(SpongeOptions.POOL_DIR)).isEqualTo("/node/pool");
    assertThat(values.get(SpongeOptions.POOL_SIZE)).isEqualTo(96L << 20);
    assertThat(values.get(SpongeOptions.POOL_NAME))
        .as("not final on the node")
        .isEqualTo("job-pool");
    assertThat(values.get(SpongeOptions.CHUNK_SIZE)).isEqualTo(1L << 20);
    assertThat(merged.get("mapreduce.task.io.sort.mb")).as("not a sponge.* key").isEqualTo("100");
    assertThat(job.get("sponge.pool.dir"))
        .as("the task's own configuration")
        .isEqualTo("/job/pool");
    assertThat(log.messages)
        .as("logged once")
        .containsExactly(
            "sponge.pool.dir, sponge.pool.size from "
                + mapredSite
                + " (final there) win over the task's values");
  }

  @Test
  void aKeyFinalInCoreSiteStaysAsInAJobConf() throws IOException {
    write("core-site.xml", property("sponge.pool.name", "from-core", true));
    write(
        "mapred-site.xml",
        property("sponge.pool.name", "from-mapred", true)
            + property("sponge.node.id", "worker-7", true));
    write("yarn-site.xml", property("sponge.server.address", "worker-7:7071", true));

    NodeFinalKeys node = NodeFinalKeys.of(confDir);

    assertThat(node.values())
        .containsOnly(
            Map.entry("sponge.pool.name", "from-core"),
            Map.entry("sponge.node.id", "worker-7"),
            Map.entry("sponge.server.address", "worker-7:7071"));
    assertThat(node.sources().get("sponge.pool.name")).isEqualTo(confDir.resolve("core-site.xml"));
    assertThat(node.sources().get("sponge.server.address"))
        .isEqualTo(confDir.resolve("yarn-site.xml"));
  }

  @Test
  void aMissingDirectoryOrFileChangesNothing() throws IOException {
    Configuration job = new Configuration(false);
    job.set("sponge.pool.dir", "/job/pool");

    NodeFinalKeys noDir = NodeFinalKeys.of(confDir.resolve("absent"));
    NodeFinalKeys noFile = NodeFinalKeys.of(confDir);
    write("hdfs-site.xml", property("sponge.pool.dir", "/not/a/task/file", true));
    NodeFinalKeys otherFile = NodeFinalKeys.of(confDir);

    for (NodeFinalKeys node : new NodeFinalKeys[] {noDir, noFile, otherFile}) {
      assertThat(node.values()).isEmpty();
      assertThat(node.over(job)).isSameAs(job);
    }
    assertThat(job.get("sponge.pool.dir")).isEqualTo("/job/pool");
  }

  @Test
  void aSiteFileThatCannotBeParsedIsAnErrorNamingIt() throws IOException {
    write("core-site.xml", property("sponge.pool.name", "fine", true));
    Path broken = confDir.resolve("mapred-site.xml");
    Files.writeString(
        broken,
        "<?xml version=\"1.0\"?>\n<configuration>\n  <property><name>sponge.pool.dir</name>\n",
        StandardCharsets.UTF_8);

    assertThatThrownBy(() -> NodeFinalKeys.of(confDir))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith(
            "Cannot parse " + broken + ", a site file of the node's HADOOP_CONF_DIR");
  }

  private void write(String name, String properties) throws IOException {
    Files.writeString(
        confDir.resolve(name),
        "<?xml version=\"1.0\"?>\n<configuration>\n" + properties + "</configuration>\n",
        StandardCharsets.UTF_8);
  }

  private static String property(String name, String value, boolean isFinal) {
    return "  <property><name>"
        + name
        + "</name><value>"
        + value
        + "</value>"
        + (isFinal ? "<final>true</final>" : "")
        + "</property>\n";
  }
}
