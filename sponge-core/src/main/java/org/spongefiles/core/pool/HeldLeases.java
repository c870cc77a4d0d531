package org.spongefiles.core.pool;

import java.security.SecureRandom;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.spongefiles.core.io.JvmToken;

/**
 * Lease ids, and which of them this JVM holds. A lease id's high 32 bits are the token of the JVM
 * that took it ({@link JvmToken}, shared by every copy of these classes in the JVM); its low 32
 * bits are random and never 0 (0 is the JVM's file-less lease). A liveness check of a lease of this
 * JVM must never open its file: closing any descriptor of a file drops every POSIX lock the process
 * holds on it, so the check itself would end the lease.
 */
final class HeldLeases {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final int JVM_TOKEN = JvmToken.value();
  private static final Set<Long> HELD = ConcurrentHashMap.newKeySet();
  private static final long JVM_LOCAL = JvmToken.jvmLocalLease();

  static {
    HELD.add(JVM_LOCAL);
  }

  private HeldLeases() {}

  /** A fresh lease id of this JVM; never 0. */
  static long newId() {
    int low;
    do {
      low = RANDOM.nextInt();
    } while (low == 0);
    return ((long) JVM_TOKEN << 32) | (low & 0xffffffffL);
  }

  /** True when {@code id} was taken by this JVM (by any copy of these classes). */
  static boolean isThisJvm(long id) {
    return (int) (id >>> 32) == JVM_TOKEN;
  }

  /** True when this copy of the classes holds lease {@code id} now. */
  static boolean holds(long id) {
    return HELD.contains(id);
  }

  static void add(long id) {
    HELD.add(id);
  }

  static void remove(long id) {
    HELD.remove(id);
  }

  /** A lease held for the JVM's life without a file: alive to this JVM, dead to every other. */
  static long jvmLocal() {
    return JVM_LOCAL;
  }
}
