package org.spongefiles.it.install;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Edits the shipped conf/sponge-site.xml as an operator does: sets the value of a property that is
 * there, uncommenting it when the shipped file has it commented out.
 */
final class SiteXml {
  private SiteXml() {}

  static String set(String xml, String key, String value) {
    String property =
        "<property>\\s*<name>"
            + Pattern.quote(key)
            + "</name>\\s*<value>[^<]*</value>\\s*</property>";
    Matcher commented = Pattern.compile("<!--\\s*(" + property + ")\\s*-->").matcher(xml);
    if (commented.find()) {
      xml =
          xml.substring(0, commented.start()) + commented.group(1) + xml.substring(commented.end());
    }
    Matcher active =
        Pattern.compile("(<name>" + Pattern.quote(key) + "</name>\\s*<value>)[^<]*(</value>)")
            .matcher(xml);
    if (!active.find()) {
      throw new IllegalArgumentException("conf/sponge-site.xml has no property " + key);
    }
    return xml.substring(0, active.start())
        + active.group(1)
        + value
        + active.group(2)
        + xml.substring(active.end());
  }
}
