package org.spongefiles.workloads.pig;

/** Checks of the constructor arguments a script gives the workloads' UDFs in DEFINE. */
final class UdfArgs {
  private UdfArgs() {}

  /** {@code value} as an int of at least {@code min}, or an error naming the UDF and argument. */
  static int intAtLeast(String udf, String argument, String value, int min) {
    int parsed;
    try {
      parsed = Integer.parseInt(value == null ? "" : value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          udf + " " + argument + " : '" + value + "' (expected: an integer >= " + min + ")", e);
    }
    if (parsed < min) {
      throw new IllegalArgumentException(
          udf + " " + argument + " : " + parsed + " (expected: >= " + min + ")");
    }
    return parsed;
  }
}
