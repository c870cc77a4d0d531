package org.spongefiles.core.pool;

import static org.spongefiles.core.pool.PoolLayout.OFF_LOCK;
import static org.spongefiles.core.pool.PoolLayout.OFF_TAKEOVERS;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The pool's cross-process lock: a CAS spin lock on a mapped word holding the holder process's
 * lease id, so a waiter can tell when the holder died (its lease ended, in whatever pid namespace
 * it ran) and take the lock over. Threads of one JVM first queue on an ordinary lock, so only one
 * of them spins on the shared word.
 */
final class PoolLock {
  private static final long LIVENESS_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
  private static final ConcurrentHashMap<Long, ReentrantLock> JVM_LOCKS = new ConcurrentHashMap<>();

  private final MappedWords words;
  private final String poolName;
  private final ReentrantLock jvmLock;
  private final long myWord;
  private final LeaseDirectory leases;

  /** A lock taken under {@code myLease}, a lease of this process in {@code leases}. */
  PoolLock(MappedWords words, long poolId, String poolName, Lease myLease, LeaseDirectory leases) {
    this.words = words;
    this.poolName = poolName;
    this.jvmLock = JVM_LOCKS.computeIfAbsent(poolId, id -> new ReentrantLock());
    this.myWord = myLease.id();
    this.leases = leases;
  }

  /**
   * Takes the lock, waiting at most {@code timeout} for a live holder.
   *
   * @return true when the lock was taken over from a dead holder, whose half-done update the caller
   *     must repair before using the metadata
   * @throws PoolLockTimeoutException when a live holder kept it past the timeout
   * @throws InterruptedException when interrupted while waiting
   */
  boolean lock(Duration timeout) throws PoolLockTimeoutException, InterruptedException {
    long start = System.nanoTime();
    long deadline = start + timeout.toNanos();
    if (!jvmLock.tryLock(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
      throw new PoolLockTimeoutException(poolName, words.getLong(OFF_LOCK), timeout.toMillis());
    }
    boolean acquired = false;
    try {
      long nextCheck = System.nanoTime() + LIVENESS_CHECK_NANOS;
      for (int spins = 0; ; spins++) {
        long holder = words.getLong(OFF_LOCK);
        if (holder == 0) {
          if (words.casLong(OFF_LOCK, 0, myWord)) {
            acquired = true;
            return false;
          }
          continue;
        }
        // A holder with our own word is live and is waited for like any other: it is this
        // process, through a second handle of this JVM's lease (another class loader, whose
        // jvmLock differs), and unlock is a single store, so an unlock of ours is never lost.
        long now = System.nanoTime();
        if (now >= nextCheck) {
          nextCheck = now + LIVENESS_CHECK_NANOS;
          if (!leases.isAlive(holder) && words.casLong(OFF_LOCK, holder, myWord)) {
            acquired = true;
            words.addLong(OFF_TAKEOVERS, 1);
            return true;
          }
        }
        if (now >= deadline) {
          throw new PoolLockTimeoutException(
              poolName, holder, TimeUnit.NANOSECONDS.toMillis(now - start));
        }
        backOff(spins);
        if (Thread.interrupted()) {
          throw new InterruptedException("interrupted waiting for the lock of pool " + poolName);
        }
      }
    } finally {
      if (!acquired) {
        jvmLock.unlock();
      }
    }
  }

  void unlock() {
    words.setLong(OFF_LOCK, 0);
    jvmLock.unlock();
  }

  /** The lease id of the process holding the lock now, or 0 when it is free. */
  long holder() {
    return words.getLong(OFF_LOCK);
  }

  private static void backOff(int spins) {
    if (spins < 200) {
      Thread.onSpinWait();
    } else if (spins < 400) {
      Thread.yield();
    } else {
      LockSupport.parkNanos(20_000);
    }
  }
}
