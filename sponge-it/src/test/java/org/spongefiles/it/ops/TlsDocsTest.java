package org.spongefiles.it.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeInputStream;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.it.Distribution;
import org.spongefiles.it.ScriptRun;
import org.spongefiles.testkit.RandomBytes;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;

/**
 * docs/operations.md's TLS section followed as written: its shell block (with this host's names for
 * its example node's) makes the stores, the files are copied under the names its prose gives, its
 * {@code sponge-site.xml} keys (with this test's directory for {@code /etc/spongefiles/tls}) start
 * the tarball's sponge server over TLS, {@code bin/sponge-server status} reads it over TLS, and a
 * task with only the truststore keys, as the section says tasks need, spills to it and reads every
 * byte back.
 */
@Timeout(120)
class TlsDocsTest {
  private static final Pattern PROPERTY =
      Pattern.compile(
          "<property>\\s*<name>([^<]+)</name>\\s*<value>([^<]*)</value>\\s*</property>");
  private static final String EXAMPLE_DIR = "/etc/spongefiles/tls/";

  private Path work;
  private Path pool;
  private Path script;

  @BeforeEach
  void setUp() throws Exception {
    work = Files.createTempDirectory("tls-docs");
    pool = TestDirs.newShmDir("tls-docs");
    script = Distribution.home().resolve("bin/sponge-server");
  }

  @AfterEach
  void tearDown() throws Exception {
    run(script, "stop");
    TestDirs.deleteTree(work);
    TestDirs.deleteTree(pool);
  }

  @Test
  void theSectionsCommandsAndKeysServeATaskOverTls() throws Exception {
    String section = section(Files.readString(operationsMd()), "### TLS");

    // The shell block, run in an admin directory, with this host's names for node17's.
    Path admin = Files.createDirectories(work.resolve("admin"));
    String commands =
        block(section, "```sh")
            .replace("node17.example.com", "localhost")
            .replace("10.1.7.17", "127.0.0.1");
    ScriptRun made = runIn(admin, "bash", "-euo", "pipefail", "-c", commands);
    assertThat(made.exit).as(made.output).isZero();

    // The prose: node17's store and password to the node as node.*, the truststore to every node.
    Path tls = Files.createDirectories(work.resolve("etc-spongefiles-tls"));
    Files.copy(admin.resolve("node17.p12"), tls.resolve("node.p12"));
    Files.copy(admin.resolve("node17.password"), tls.resolve("node.password"));
    Files.copy(admin.resolve("truststore.p12"), tls.resolve("truststore.p12"));
    Files.copy(admin.resolve("trust.password"), tls.resolve("truststore.password"));

    Map<String, String> keys = properties(block(section, "```xml"));
    assertThat(keys).containsKeys("sponge.tls.enabled", "sponge.tls.truststore.file");
    keys.replaceAll((key, value) -> value.replace(EXAMPLE_DIR, tls + "/"));
    for (String file : keys.values()) {
      if (file.startsWith("/")) {
        assertThat(Path.of(file)).as("a file the section's keys name").isRegularFile();
      }
    }

    Path secret = work.resolve("secret");
    Files.writeString(secret, "a cluster secret of the TLS docs test\n");
    int port = SpongeTestConf.freePort();
    Path conf = Files.createDirectories(work.resolve("conf"));
    Path dist = Distribution.home();
    Files.copy(dist.resolve("conf/log4j.properties"), conf.resolve("log4j.properties"));
    Files.copy(dist.resolve("conf/log4j-cli.properties"), conf.resolve("log4j-cli.properties"));
    Map<String, String> site = new LinkedHashMap<>(keys);
    site.put("sponge.pool.size", "4m");
    site.put("sponge.pool.dir", pool.toString());
    site.put("sponge.pool.permissions", "rw-------");
    site.put("sponge.server.bind.host", "127.0.0.1");
    site.put("sponge.server.port", Integer.toString(port));
    site.put("sponge.server.address", "localhost:" + port);
    site.put("sponge.server.metrics.port", "-1");
    site.put("sponge.auth.secret.file", secret.toString());
    StringBuilder xml = new StringBuilder("<configuration>\n");
    site.forEach(
        (key, value) ->
            xml.append("<property><name>")
                .append(key)
                .append("</name><value>")
                .append(value)
                .append("</value></property>\n"));
    Files.writeString(conf.resolve("sponge-site.xml"), xml.append("</configuration>\n"));

    ScriptRun started = run(script, "start");
    assertThat(started.exit).as(started.output).isZero();
    assertThat(started.output).contains("READY localhost:" + port);
    ScriptRun status = run(script, "status");
    assertThat(status.exit).as(status.output).isZero();
    assertThat(status.output).contains("healthy: localhost:" + port);

    // mapred-site.xml: tasks need only the truststore keys.
    Configuration task = new Configuration(false);
    keys.forEach(
        (key, value) -> {
          if (!key.startsWith("sponge.tls.keystore.")) {
            task.set(key, value);
          }
        });
    task.set("sponge.tiers", "remote");
    // The task's lease goes beside the node's pool, as mapred-site.xml's pool keys put it.
    task.set("sponge.pool.dir", pool.toString());
    task.set("sponge.remote.servers", "localhost:" + port);
    task.set("sponge.auth.secret.file", secret.toString());
    try (SpongeTask spongeTask = SpongeTask.open(task, "attempt_tls_docs")) {
      SpongeFile file = spongeTask.create("over-tls");
      byte[] digest;
      try (OutputStream out = file.output()) {
        digest = RandomBytes.write(out, 17, 3L * 1024 * 1024 + 4321);
      }
      assertThat(file.chunks()).isNotEmpty().allMatch(c -> c.tier() == TierKind.REMOTE);
      try (SpongeInputStream in = file.input()) {
        assertThat(RandomBytes.read(in, 1).sha256).isEqualTo(digest);
      }
    }
    assertThat(Files.readString(work.resolve("logs/sponge-server-default.log")))
        .doesNotContain("not_tls")
        .doesNotContain("tls_handshake");
  }

  /**
   * The text of a section, from its heading to the next heading of its level or above, down to
   * {@code ##} (a line starting {@code # } is a comment of a shell block, not the title).
   */
  private static String section(String text, String heading) {
    int start = text.indexOf("\n" + heading + "\n");
    assertThat(start).as("operations.md has a section %s", heading).isNotNegative();
    int level = heading.indexOf(' ');
    Matcher next = Pattern.compile("\n#{2," + level + "} ").matcher(text);
    int end = next.find(start + heading.length() + 1) ? next.start() : text.length();
    return text.substring(start, end);
  }

  /** The first fenced block opened by {@code fence}, without its fences. */
  private static String block(String section, String fence) {
    int start = section.indexOf(fence);
    assertThat(start).as("the TLS section has a %s block", fence).isNotNegative();
    int from = section.indexOf('\n', start) + 1;
    return section.substring(from, section.indexOf("```", from));
  }

  private static Map<String, String> properties(String xml) {
    Map<String, String> properties = new LinkedHashMap<>();
    Matcher matcher = PROPERTY.matcher(xml);
    while (matcher.find()) {
      properties.put(matcher.group(1).trim(), matcher.group(2).trim());
    }
    return properties;
  }

  private static Path operationsMd() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path doc = dir.resolve("docs/operations.md");
      if (Files.isRegularFile(doc) && Files.isDirectory(dir.resolve("sponge-core"))) {
        return doc;
      }
    }
    throw new IllegalStateException("No docs/operations.md above " + Path.of("").toAbsolutePath());
  }

  private ScriptRun run(Path script, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("bash", script.toString()));
    command.addAll(List.of(args));
    return runIn(work, command.toArray(new String[0]));
  }

  private ScriptRun runIn(Path dir, String... command) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
    builder.environment().put("SPONGE_CONF_DIR", work.resolve("conf").toString());
    builder.environment().put("SPONGE_LOG_DIR", work.resolve("logs").toString());
    builder.environment().put("SPONGE_PID_DIR", work.resolve("run").toString());
    builder.environment().put("SPONGE_SERVER_OPTS", "-Xmx128m");
    return ScriptRun.of(builder);
  }
}
