package org.spongefiles.core.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Generates the configuration reference from every {@link OptionSet} on the classpath, so the
 * documentation cannot drift from the code. {@code main(path)} writes it; a test in the {@code
 * integration} module fails when the committed copy is stale.
 */
public final class ConfigDocs {
  private ConfigDocs() {}

  /** Every option set visible to this class loader, in documentation order. */
  public static List<OptionSet> discover() {
    List<OptionSet> sets = new ArrayList<>();
    ServiceLoader.load(OptionSet.class, ConfigDocs.class.getClassLoader()).forEach(sets::add);
    sets.sort(Comparator.comparingInt(OptionSet::order).thenComparing(OptionSet::title));
    ConfigCheck.index(sets); // a key declared twice fails here, before anything reads it
    return sets;
  }

  /** The Markdown reference for {@code sets}. */
  public static String render(List<OptionSet> sets) {
    StringBuilder md = new StringBuilder();
    md.append("# Configuration reference\n\n")
        .append("Generated from the option declarations in the code ")
        .append("(`org.spongefiles.core.config.ConfigDocs`); do not edit by hand. ")
        .append("Regenerate with `mvn -q -pl sponge-it -am -DskipTests -Pdocs package`.\n\n")
        .append("Sizes take binary suffixes (`64k`, `1m`, `2g`); durations take units ")
        .append("(`500ms`, `5s`, `2m`). A value that does not parse or validate stops the task ")
        .append("or daemon at start with `Invalid value X for configuration Y: reason`. ")
        .append("A `sponge.*` key that no module declares is logged once as unknown, with the ")
        .append("nearest known key. Importance: `high` keys are the ones most clusters set or ")
        .append("must check, `low` ones are tuning rarely worth changing.\n");
    for (OptionSet set : sets) {
      md.append("\n## ").append(set.title()).append("\n\n").append(set.summary()).append("\n\n");
      md.append("| key | importance | type | default | description |\n");
      md.append("|---|---|---|---|---|\n");
      for (ConfigOption<?> option : set.options()) {
        String text = option.description();
        if (!option.rule().isEmpty()) {
          text = text + " Valid: " + option.rule() + ".";
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
      System.err.println("usage: ConfigDocs <output.md>");
      System.exit(2);
    }
    Path out = Path.of(args[0]);
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.write(out, render(discover()).getBytes(StandardCharsets.UTF_8));
    System.out.println("wrote " + out);
  }
}
