package org.spongefiles.emulator.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A Hadoop-style {@code *-site.xml} as an operator writes it: properties in the order given, some
 * of them {@code <final>} (a job's configuration cannot override those).
 */
final class SiteFile {
  private final Map<String, String> properties = new LinkedHashMap<>();
  private final Set<String> finals = new TreeSet<>();

  SiteFile set(String key, Object value) {
    properties.put(key, String.valueOf(value));
    return this;
  }

  /** Sets {@code key} as a final property of the node. */
  SiteFile setFinal(String key, Object value) {
    finals.add(key);
    return set(key, value);
  }

  SiteFile setAll(Map<String, String> values) {
    values.forEach(this::set);
    return this;
  }

  void write(Path file) throws IOException {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    for (Map.Entry<String, String> property : properties.entrySet()) {
      xml.append("  <property>\n    <name>")
          .append(escape(property.getKey()))
          .append("</name>\n    <value>")
          .append(escape(property.getValue()))
          .append("</value>\n");
      if (finals.contains(property.getKey())) {
        xml.append("    <final>true</final>\n");
      }
      xml.append("  </property>\n");
    }
    Files.writeString(file, xml.append("</configuration>\n").toString());
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
