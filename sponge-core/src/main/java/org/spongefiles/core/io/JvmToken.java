package org.spongefiles.core.io;

import java.security.SecureRandom;

/**
 * A random token naming this JVM, the same for every copy of SpongeFiles' classes in it (one per
 * class loader): it is kept in a system property. Lease ids carry it in their high 32 bits, so a
 * JVM knows its own leases without opening their files (see {@code pool.LeaseDirectory}).
 */
public final class JvmToken {
  private static final String PROPERTY = "org.spongefiles.jvm.token";
  private static final int VALUE = load();

  private JvmToken() {}

  /** The token; never 0. */
  public static int value() {
    return VALUE;
  }

  /**
   * The lease id held for this JVM's life without a lease file (the token, low 32 bits 0): alive to
   * this JVM, dead to every other. For identities of daemons and tools that hold no chunks.
   */
  public static long jvmLocalLease() {
    return (long) VALUE << 32;
  }

  private static int load() {
    SecureRandom random = new SecureRandom();
    int fresh;
    do {
      fresh = random.nextInt();
    } while (fresh == 0);
    Object existing = System.getProperties().putIfAbsent(PROPERTY, Integer.toHexString(fresh));
    return existing == null ? fresh : Integer.parseUnsignedInt(existing.toString(), 16);
  }
}
