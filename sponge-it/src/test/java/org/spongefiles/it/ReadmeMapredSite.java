package org.spongefiles.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The mapred-site.xml snippet of the README ("Hadoop jobs need no code change"), read from the
 * README itself so that tests use exactly the keys a user is told to set.
 */
public final class ReadmeMapredSite {
  private static final Pattern PROPERTY =
      Pattern.compile(
          "<property>\\s*<name>([^<]+)</name>\\s*<value>([^<]*)</value>\\s*</property>");

  private ReadmeMapredSite() {}

  /** The snippet's keys and values, in the README's order. */
  public static Map<String, String> properties() {
    Path readme = readme();
    String text;
    try {
      text = Files.readString(readme);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + readme, e);
    }
    int jobs = text.indexOf("**Hadoop jobs**");
    int start = text.indexOf("```xml", jobs);
    int end = text.indexOf("```", start + 6);
    if (jobs < 0 || start < 0 || end < 0) {
      throw new IllegalStateException(
          readme + " has no mapred-site.xml snippet under **Hadoop jobs**");
    }
    Map<String, String> properties = new LinkedHashMap<>();
    Matcher matcher = PROPERTY.matcher(text.substring(start, end));
    while (matcher.find()) {
      properties.put(matcher.group(1).trim(), matcher.group(2).trim());
    }
    return properties;
  }

  /** README.md of the project: surefire and failsafe run in the module's directory. */
  private static Path readme() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path readme = dir.resolve("README.md");
      if (Files.isRegularFile(readme) && Files.isDirectory(dir.resolve("sponge-core"))) {
        return readme;
      }
    }
    throw new IllegalStateException("No project README.md above " + Path.of("").toAbsolutePath());
  }
}
