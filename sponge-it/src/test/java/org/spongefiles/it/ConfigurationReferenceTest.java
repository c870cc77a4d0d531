package org.spongefiles.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.config.ConfigDocs;

/** docs/configuration.md is generated from the option declarations of every module. */
class ConfigurationReferenceTest {

  @Test
  void theCommittedReferenceIsCurrent() throws Exception {
    Path committed = Path.of("..", "docs", "configuration.md");
    String expected = ConfigDocs.render(ConfigDocs.discover());
    assertThat(Files.exists(committed))
        .as(
            "docs/configuration.md is missing; run: mvn -q -pl sponge-it -am -DskipTests -Pdocs package")
        .isTrue();
    assertThat(new String(Files.readAllBytes(committed), StandardCharsets.UTF_8))
        .as(
            "docs/configuration.md is stale; regenerate it with:"
                + " mvn -q -pl sponge-it -am -DskipTests -Pdocs package")
        .isEqualTo(expected);
  }
}
