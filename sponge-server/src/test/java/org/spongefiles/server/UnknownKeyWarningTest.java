package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.spongefiles.testkit.ChildJvm;

/** A misspelt key in sponge-site.xml is reported when the daemon starts, not silently ignored. */
class UnknownKeyWarningTest {

  @Test
  void aMisspeltPoolSizeInTheSiteFileIsWarnedAtStartNamingTheKnownKey() throws Exception {
    Path site = Files.createTempFile("sponge-site", ".xml");
    Path stderr = Files.createTempFile("server-typo", ".err");
    try (ServerFixture fixture = new ServerFixture()) {
      Configuration conf = fixture.serverConf("node-typo", 16);
      conf.set("sponge.pool.szie", "64m");
      try (OutputStream out = Files.newOutputStream(site)) {
        conf.writeXml(out);
      }
      List<String> lines = new ArrayList<>();
      try (ChildJvm server = ChildJvm.start(ServerMain.class, stderr, "--conf", site.toString())) {
        server.awaitLine("READY", 60, TimeUnit.SECONDS);
        lines.addAll(server.output());
      }
      lines.addAll(Files.readAllLines(stderr));
      List<String> warnings =
          lines.stream()
              .filter(line -> line.contains("sponge.pool.szie"))
              .collect(Collectors.toList());
      assertThat(warnings).hasSize(1);
      assertThat(warnings.get(0))
          .contains("WARN")
          .contains("Unknown configuration key sponge.pool.szie (value 64m)")
          .contains("did you mean sponge.pool.size?");
    } finally {
      Files.deleteIfExists(site);
      Files.deleteIfExists(stderr);
    }
  }
}
