package org.spongefiles.merger;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.mapred.Merger.Segment;
import org.apache.hadoop.mapreduce.task.reduce.ExceptionReporter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Merges batches of in-memory map outputs, through the job's combiner when it has one, into a
 * SpongeFile on a thread of its own, one batch at a time; the shuffle's fetchers wait in {@link
 * #waitForMerge()} while a batch is pending, which is Hadoop's back-pressure on the shuffle memory.
 */
final class InMemoryMerger<K, V> implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(InMemoryMerger.class);

  /** Where a finished merge is reported. */
  interface Listener<K, V> {
    void merged(List<InMemoryOutput<K, V>> inputs, SpilledSegment output);
  }

  /** Builds the merger of a manager, which listens to it. */
  interface Factory<K, V> {
    InMemoryMerger<K, V> create(Listener<K, V> listener);
  }

  private final Spills<K, V> spills;
  private final SegmentMerger<K, V> merger;
  private final Combiner<K, V> combiner;
  private final Listener<K, V> listener;
  private final ExceptionReporter failures;
  private final ExecutorService thread;
  private final String reduceId;
  private int pending;
  private boolean closed;

  InMemoryMerger(
      String reduceId,
      Spills<K, V> spills,
      SegmentMerger<K, V> merger,
      Combiner<K, V> combiner,
      Listener<K, V> listener,
      ExceptionReporter failures) {
    this.spills = spills;
    this.merger = merger;
    this.combiner = combiner;
    this.listener = listener;
    this.failures = failures;
    this.reduceId = reduceId;
    this.thread =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "sponge-inmemory-merger-" + reduceId);
              t.setDaemon(true);
              return t;
            });
  }

  /** Queues a merge of {@code inputs}; failures are reported to the shuffle. */
  void startMerge(List<InMemoryOutput<K, V>> inputs) {
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException(
            "in-memory merger of "
                + reduceId
                + " is closed; cannot merge "
                + inputs.size()
                + " more map outputs");
      }
      pending++;
    }
    thread.execute(
        () -> {
          try {
            listener.merged(inputs, merge(inputs));
          } catch (Throwable t) {
            failures.reportException(t);
          } finally {
            synchronized (this) {
              pending--;
              notifyAll();
            }
          }
        });
  }

  private SpilledSegment merge(List<InMemoryOutput<K, V>> inputs) throws IOException {
    List<Segment<K, V>> segments = new ArrayList<>(inputs.size());
    long bytes = 0;
    for (InMemoryOutput<K, V> input : inputs) {
      segments.add(spills.segment(input));
      bytes += input.getSize();
    }
    SpilledSegment output = merger.merge("inmemory-merge", segments, combiner);
    LOG.info("Merged {} in-memory map outputs ({} bytes) into {}", inputs.size(), bytes, output);
    return output;
  }

  /** Blocks while a merge is queued or running. */
  synchronized void waitForMerge() throws InterruptedException {
    while (pending > 0) {
      wait();
    }
  }

  /** Waits for the pending merges, then stops the thread. Idempotent. */
  @Override
  public void close() throws IOException {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    try {
      waitForMerge();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted waiting for in-memory merges", e);
    } finally {
      thread.shutdownNow();
    }
    try {
      thread.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
