package org.spongefiles.core.config;

import java.util.Locale;

/**
 * Byte sizes as operators write them: a number with an optional binary suffix {@code k, m, g, t}
 * (so {@code 1m} is 1,048,576 bytes), the same convention as Hadoop's {@code getLongBytes}.
 */
public final class ByteSize {
  private static final String SUFFIXES = "kmgtp";

  private ByteSize() {}

  /**
   * Parses {@code 512}, {@code 64k}, {@code 1m}, {@code 2g} (case-insensitive).
   *
   * @throws NumberFormatException with the reason when the text is not a size
   */
  public static long parse(String text) {
    String s = text.trim().toLowerCase(Locale.ROOT);
    if (s.endsWith("b") && s.length() > 1 && SUFFIXES.indexOf(s.charAt(s.length() - 2)) >= 0) {
      s = s.substring(0, s.length() - 1); // accept "64kb", "1mb"
    }
    if (s.isEmpty()) {
      throw new NumberFormatException("empty size");
    }
    int unit = SUFFIXES.indexOf(s.charAt(s.length() - 1));
    String digits = unit >= 0 ? s.substring(0, s.length() - 1).trim() : s;
    long number;
    try {
      number = Long.parseLong(digits);
    } catch (NumberFormatException e) {
      throw new NumberFormatException(
          "not a byte size (expected a whole number with an optional k, m, g, t or p suffix)");
    }
    long multiplier = unit >= 0 ? 1L << (10 * (unit + 1)) : 1;
    if (number < 0) {
      throw new NumberFormatException("a size cannot be negative");
    }
    if (number > Long.MAX_VALUE / multiplier) {
      throw new NumberFormatException("too large");
    }
    return number * multiplier;
  }

  /**
   * Formats with the largest binary suffix that divides the value exactly ({@code 1048576 -> 1m}).
   */
  public static String format(long bytes) {
    if (bytes == 0) {
      return "0";
    }
    for (int unit = SUFFIXES.length() - 1; unit >= 0; unit--) {
      long multiplier = 1L << (10 * (unit + 1));
      if (bytes % multiplier == 0) {
        return (bytes / multiplier) + String.valueOf(SUFFIXES.charAt(unit));
      }
    }
    return Long.toString(bytes);
  }
}
