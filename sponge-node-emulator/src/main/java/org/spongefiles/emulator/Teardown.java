package org.spongefiles.emulator;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Everything the emulator made on the host, undone in reverse order by whoever comes first: the
 * owner's {@code close()}, or a JVM shutdown hook (normal exit, an uncaught failure, Ctrl-C). Every
 * host name the emulator makes starts with {@link #prefix()}, {@code spongebench-<pid>-}, so what a
 * SIGKILLed run left behind is found by {@link StaleResources}.
 */
public final class Teardown {
  static final String PREFIX = "spongebench-";
  private static final Deque<Closeable> OPEN = new ArrayDeque<>();
  private static boolean hooked;

  private Teardown() {}

  /** The prefix of every name this process makes. */
  public static String prefix() {
    return PREFIX + ProcessHandle.current().pid() + "-";
  }

  /**
   * Remembers {@code resource} until it is closed or the JVM exits; the hook closes the last
   * registered first. Registering a resource again moves it to the front: a resource that made
   * others after it registered, and releases them itself in the right order, does that.
   */
  public static synchronized void register(Closeable resource) {
    if (!hooked) {
      Runtime.getRuntime().addShutdownHook(new Thread(Teardown::closeAll, "spongebench-teardown"));
      hooked = true;
    }
    OPEN.remove(resource);
    OPEN.push(resource);
  }

  /** Forgets {@code resource}: its owner closed it. */
  static synchronized void forget(Closeable resource) {
    OPEN.remove(resource);
  }

  private static void closeAll() {
    List<Closeable> left;
    synchronized (Teardown.class) {
      left = new ArrayList<>(OPEN);
      OPEN.clear();
    }
    for (Closeable resource : left) {
      try {
        resource.close();
      } catch (IOException | RuntimeException e) {
        System.err.println("spongebench teardown: " + e.getMessage());
      }
    }
  }
}
