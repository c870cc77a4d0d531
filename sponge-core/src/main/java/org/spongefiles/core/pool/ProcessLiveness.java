package org.spongefiles.core.pool;

/**
 * This process's pid and start time, for diagnostics and for identities that predate leases. They
 * decide nothing: in a pid namespace of its own a task is pid 1, and without its own /proc it reads
 * the host init's start time. Liveness is decided by {@link Lease}s.
 */
public final class ProcessLiveness {
  private static final long CURRENT_START =
      ProcessHandle.current().info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);

  private ProcessLiveness() {}

  /** This process's pid, as its own pid namespace numbers it. */
  public static int currentPid() {
    return (int) ProcessHandle.current().pid();
  }

  /** This process's start time in epoch millis, or 0 when the OS does not say. */
  public static long currentStartMillis() {
    return CURRENT_START;
  }
}
