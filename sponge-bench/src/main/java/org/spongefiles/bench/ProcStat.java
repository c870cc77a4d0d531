package org.spongefiles.bench;

/**
 * One line of Linux's {@code /proc/<pid>/stat} or {@code /proc/<pid>/task/<tid>/stat}: {@code pid
 * (comm) state ...}, where comm may hold spaces and parentheses, so fields count from its last
 * closing parenthesis.
 */
public final class ProcStat {
  /** Linux's USER_HZ, the unit of /proc's CPU times, is 100 on every architecture Java runs on. */
  public static final long TICKS_PER_SECOND = 100;

  public static final long NANOS_PER_TICK = 1_000_000_000L / TICKS_PER_SECOND;

  private ProcStat() {}

  /** User plus system CPU ticks (fields 14 and 15). */
  public static long cpuTicks(String stat) {
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }

  /** The process's or thread's name (field 2, without its parentheses). */
  public static String name(String stat) {
    return stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  }
}
