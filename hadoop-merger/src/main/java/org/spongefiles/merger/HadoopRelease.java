package org.spongefiles.merger;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.util.VersionInfo;

/**
 * The one place that knows which Hadoop releases the merger runs on. The merger subclasses Hadoop's
 * {@code Shuffle} and implements its {@code MergeManager}, internals that are not a public API; it
 * is built against the oldest supported release and tested against each (the root pom's hadoop-3.3
 * and hadoop-3.5 profiles, {@code .ci/hadoop-matrix}). A reduce task on another release fails at
 * its start with a message naming the release and the supported ones, unless {@code
 * sponge.merger.fallback=true}.
 */
public final class HadoopRelease {
  /** The supported releases, as people read them. */
  public static final String SUPPORTED = "3.3.6 and later 3.3.x, 3.4.x, 3.5.x";

  private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+).*");

  private HadoopRelease() {}

  /** The Hadoop release of this JVM, as its {@code VersionInfo} reports it. */
  public static String running() {
    return VersionInfo.getVersion();
  }

  /** Whether the merger supports {@code version} (e.g. "3.4.3", "3.5.0-SNAPSHOT"). */
  public static boolean isSupported(String version) {
    Matcher m = VERSION.matcher(version);
    if (!m.matches()) {
      return false;
    }
    int major = Integer.parseInt(m.group(1));
    int minor = Integer.parseInt(m.group(2));
    int patch = Integer.parseInt(m.group(3));
    if (major != 3) {
      return false;
    }
    return (minor == 3 && patch >= 6) || minor == 4 || minor == 5;
  }

  /**
   * Checks {@code version}.
   *
   * @throws SpongeMergerException naming the release and the supported ones
   */
  public static void check(String version) {
    if (!isSupported(version)) {
      throw new SpongeMergerException(
          "Hadoop "
              + version
              + " is not a release the SpongeFiles merger supports ("
              + SUPPORTED
              + ")",
          null);
    }
  }
}
