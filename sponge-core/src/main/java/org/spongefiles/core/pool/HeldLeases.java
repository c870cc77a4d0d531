package org.spongefiles.core.pool;

import java.security.SecureRandom;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Lease ids, and which of them this JVM holds. A lease id's high 32 bits are a token of the JVM that
 * took it, kept in a system property so that every copy of these classes (one per class loader) in
 * the JVM shares it. A liveness check of a lease of this JVM must never open its file: closing any
 * descriptor of a file drops every POSIX lock the process holds on it, so the check itself would
 * end the lease.
 */
final class HeldLeases {
  private static final String TOKEN_PROPERTY = "org.spongefiles.pool.lease.jvm";
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final int JVM_TOKEN = jvmToken();
  private static final Set<Long> HELD = ConcurrentHashMap.newKeySet();
  private static final long JVM_LOCAL = newId();

  static {
    HELD.add(JVM_LOCAL);
  }

  private HeldLeases() {}

  /** A fresh lease id of this JVM; never 0. */
  static long newId() {
    return ((long) JVM_TOKEN << 32) | (RANDOM.nextInt() & 0xffffffffL);
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

  private static int jvmToken() {
    int fresh;
    do {
      fresh = RANDOM.nextInt();
    } while (fresh == 0);
    Object existing =
        System.getProperties().putIfAbsent(TOKEN_PROPERTY, Integer.toHexString(fresh));
    return existing == null ? fresh : Integer.parseUnsignedInt(existing.toString(), 16);
  }
}
