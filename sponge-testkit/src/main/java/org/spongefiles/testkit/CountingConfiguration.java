package org.spongefiles.testkit;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;

/**
 * A {@link Configuration} that counts the reads of each {@code sponge.*} key, to test that a task
 * or daemon parses each key once. Every typed read ({@code getTrimmed}, {@code getInt}, ...) goes
 * through {@link #get(String)}, so counting there counts them all. It is a {@link JobConf}, so a
 * reduce task's shuffle context can hold it too.
 */
public final class CountingConfiguration extends JobConf {
  private static final String PREFIX = "sponge.";
  private final Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();

  /** A copy of {@code other}'s entries whose reads from now on are counted. */
  public CountingConfiguration(Configuration other) {
    super(other);
  }

  @Override
  public String get(String name) {
    if (name.startsWith(PREFIX)) {
      reads.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
    }
    return super.get(name);
  }

  /** The {@code sponge.*} keys read more than once, with their read counts. */
  public Map<String, Integer> readMoreThanOnce() {
    Map<String, Integer> result = new TreeMap<>();
    reads.forEach(
        (key, count) -> {
          if (count.get() > 1) {
            result.put(key, count.get());
          }
        });
    return result;
  }

  /** How often {@code key} was read. */
  public int reads(String key) {
    AtomicInteger count = reads.get(key);
    return count == null ? 0 : count.get();
  }

  /** Forgets the reads so far. */
  public void reset() {
    reads.clear();
  }
}
