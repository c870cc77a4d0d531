package org.spongefiles.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.spongefiles.core.config.ConfigOption;
import org.spongefiles.core.config.OptionSet;
import org.spongefiles.core.config.OptionSets;

/**
 * Generates the configuration reference, docs/configuration.md, from every {@link OptionSet} on the
 * classpath (every module's), so the documentation cannot drift from the code. {@code main(path)}
 * writes it (the {@code docs} profile of this module); {@link ConfigurationReferenceTest} fails
 * when the committed copy is stale. A build tool: it lives with the tests, not in any jar a task
 * loads.
 */
public final class ConfigReference {
  private ConfigReference() {}

  /** The Markdown reference for {@code sets}. */
  public static String render(List<OptionSet> sets) {
    StringBuilder md = new StringBuilder();
    md.append("# Configuration reference\n\n")
        .append("Generated from the option declarations in the code ")
        .append("(`ConfigReference` in sponge-it's tests); do not edit by hand. ")
        .append("Regenerate with `mvn -q -pl sponge-it -am -DskipTests -Pdocs package`.\n\n")
        .append("Sizes take binary suffixes (`64k`, `1m`, `2g`); durations take units ")
        .append("(`500ms`, `5s`, `2m`). A value that does not parse or validate stops the task ")
        .append("or daemon at start with `Invalid value X for configuration Y: reason`. ")
        .append("A `sponge.*` key that no module declares is logged once as unknown, with the ")
        .append("nearest known key; a key's former name is still read, with a warning naming ")
        .append("the new one. A `sponge.*` key that a node's `core-site.xml`, ")
        .append("`mapred-site.xml` or `yarn-site.xml` (in the `HADOOP_CONF_DIR` its ")
        .append("NodeManager hands the containers) marks `<final>true</final>` wins over a ")
        .append("job's or a Pig script's value in every task on that node, Pig on Tez included ")
        .append("(logged once at INFO, naming the file). Importance: `high` keys are the ones ")
        .append("most clusters set or must check, `low` ones are tuning rarely worth ")
        .append("changing.\n");
    for (OptionSet set : sets) {
      md.append("\n## ").append(set.title()).append("\n\n").append(set.summary()).append("\n\n");
      md.append("| key | importance | type | default | description |\n");
      md.append("|---|---|---|---|---|\n");
      for (ConfigOption<?> option : set.options()) {
        String text = option.description();
        if (!option.rule().isEmpty()) {
          text = text + " Valid: " + option.rule() + ".";
        }
        for (String old : option.deprecatedKeys()) {
          text = text + " Formerly `" + old + "`, still read with a warning.";
        }
        String defaultText = option.defaultText().isEmpty() ? "(empty)" : option.defaultText();
        md.append("| `")
            .append(option.key())
            .append("` | ")
            .append(option.importance().label())
            .append(" | ")
            .append(cell(option.typeName()))
            .append(" | `")
            .append(cell(defaultText))
            .append("` | ")
            .append(cell(text))
            .append(" |\n");
      }
    }
    return md.toString();
  }

  private static String cell(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }

  /** Writes the reference to the path given as the only argument. */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: ConfigReference <output.md>");
      System.exit(2);
    }
    Path out = Path.of(args[0]);
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.write(out, render(OptionSets.discover()).getBytes(StandardCharsets.UTF_8));
    System.out.println("wrote " + out);
  }
}
