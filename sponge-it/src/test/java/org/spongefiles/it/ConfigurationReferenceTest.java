package org.spongefiles.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.config.ConfigOption;
import org.spongefiles.core.config.OptionSets;

/** docs/configuration.md is generated from the option declarations of every module. */
class ConfigurationReferenceTest {

  @Test
  void theCommittedReferenceIsCurrent() throws Exception {
    Path committed = Path.of("..", "docs", "configuration.md");
    String expected = ConfigReference.render(OptionSets.discover());
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

  @Test
  void theReferenceListsEveryOptionWithItsImportanceAndDefault() {
    String md = ConfigReference.render(OptionSets.discover());
    for (ConfigOption<?> option : new SpongeOptions().options()) {
      assertThat(md).contains("| `" + option.key() + "` |");
    }
    assertThat(md).contains("| `sponge.chunk.size` | high | bytes | `1m` |");
    assertThat(md).contains("| `sponge.disk.dirs` | high | list | `(empty)` |");
    assertThat(md).contains("| `sponge.io.threads` | low | int | `2` |");
    assertThat(md).contains("| `sponge.node.id` | medium | string | `(empty)` |");
  }
}
