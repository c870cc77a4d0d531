package org.spongefiles.core.pool;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether a process on this host is alive, robust against pid reuse: a process counts as the
 * recorded owner only if its start time matches the one recorded (when one was recorded).
 */
public final class ProcessLiveness {
  private static final long CURRENT_START = startMillis(ProcessHandle.current());
  private static final long CURRENT_PID_NAMESPACE = readPidNamespace();

  private ProcessLiveness() {}

  /** This process's pid. */
  public static int currentPid() {
    return (int) ProcessHandle.current().pid();
  }

  /** This process's start time in epoch millis, or 0 when the OS does not say. */
  public static long currentStartMillis() {
    return CURRENT_START;
  }

  /**
   * The inode number of this process's pid namespace ({@code /proc/self/ns/pid}), or 0 when it
   * cannot be read. Pids are only comparable between processes of the same namespace.
   */
  public static long currentPidNamespace() {
    return CURRENT_PID_NAMESPACE;
  }

  /**
   * True when process {@code pid} exists and, if {@code startMillis} is non-zero, started at that
   * time (so a recycled pid does not keep a dead owner's chunks alive).
   */
  public static boolean isAlive(int pid, long startMillis) {
    if (pid <= 0) {
      return false;
    }
    Optional<ProcessHandle> handle = ProcessHandle.of(pid);
    if (handle.isEmpty() || !handle.get().isAlive()) {
      return false;
    }
    if (startMillis == 0) {
      return true;
    }
    long actual = startMillis(handle.get());
    return actual == 0 || actual == startMillis;
  }

  /** Like {@link #isAlive(int, long)} with only the low 32 bits of the start time known. */
  static boolean isAliveLowBits(int pid, int startLowBits) {
    if (!isAlive(pid, 0)) {
      return false;
    }
    if (startLowBits == 0) {
      return true;
    }
    long actual = startMillis(ProcessHandle.of(pid).orElse(null));
    return actual == 0 || (int) actual == startLowBits;
  }

  static long startMillis(ProcessHandle handle) {
    if (handle == null) {
      return 0;
    }
    return handle.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);
  }

  private static long readPidNamespace() {
    try {
      String link = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
      // "pid:[4026531836]"
      int open = link.indexOf('[');
      int close = link.indexOf(']');
      if (open >= 0 && close > open) {
        return Long.parseLong(link.substring(open + 1, close));
      }
      return 0;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }
}
