package org.spongefiles.merger;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reduce-side merge over SpongeFiles, with Hadoop's memory model: a fetched map output that
 * fits ({@link ShuffleMemory#maxSingleShuffle}) is kept in memory while the memory limit allows,
 * else the fetcher is told to wait; a larger one streams straight into a SpongeFile. Committed
 * in-memory outputs past the merge threshold (bytes or count) are merged, with the combiner, into a
 * SpongeFile in the background, and fetchers wait for that merge ({@link #waitForResource()}) so
 * they never overrun the memory. {@link #close()} hands what is left to the {@link FinalMerge}.
 */
final class SpongeMergeManager<K, V> implements MergeManager<K, V>, InMemoryMerger.Listener<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(SpongeMergeManager.class);

  private final TaskAttemptID reduceId;
  private final JobConf conf;
  private final CompressionCodec codec;
  private final ShuffleMemory memory;
  private final Spills<K, V> spills;
  private final InMemoryMerger<K, V> inMemoryMerger;
  private final FinalMerge<K, V> finalMerge;
  private final CounterPublisher counters;

  private final List<InMemoryOutput<K, V>> inMemory = new ArrayList<>();
  private final List<SpilledSegment> spilled = new ArrayList<>();
  private long usedMemory;
  private long commitMemory;

  SpongeMergeManager(
      TaskAttemptID reduceId,
      JobConf conf,
      CompressionCodec codec,
      ShuffleMemory memory,
      Spills<K, V> spills,
      InMemoryMerger.Factory<K, V> inMemoryMergers,
      FinalMerge<K, V> finalMerge,
      CounterPublisher counters) {
    this.reduceId = reduceId;
    this.conf = conf;
    this.codec = codec;
    this.memory = memory;
    this.spills = spills;
    this.inMemoryMerger = inMemoryMergers.create(this);
    this.finalMerge = finalMerge;
    this.counters = counters;
    LOG.info("SpongeFiles merger for {}: {}", reduceId, memory);
  }

  @Override
  public void waitForResource() throws InterruptedException {
    inMemoryMerger.waitForMerge();
  }

  @Override
  public synchronized MapOutput<K, V> reserve(TaskAttemptID mapId, long size, int fetcher) {
    if (size > memory.maxSingleShuffle) {
      LOG.debug(
          "{}: {} bytes stream into a SpongeFile (limit {})", mapId, size, memory.maxSingleShuffle);
      return new SpilledOutput<>(mapId, size, this, spills, conf);
    }
    // As in Hadoop: one fetch may take the memory past the limit, so a fetch larger than what is
    // left cannot stall every fetcher while no merge is due to free memory.
    if (usedMemory > memory.memoryLimit) {
      return null;
    }
    usedMemory += size;
    return new InMemoryOutput<>(mapId, (int) size, true, this, conf, codec);
  }

  synchronized void committed(InMemoryOutput<K, V> output) {
    counters.increment(MergerCounter.MAP_OUTPUTS_IN_MEMORY);
    inMemory.add(output);
    commitMemory += output.getSize();
    boolean byBytes = commitMemory >= memory.mergeThreshold;
    boolean byCount = memory.mergeCount > 0 && inMemory.size() >= memory.mergeCount;
    if (byBytes || byCount) {
      LOG.info(
          "In-memory merge of {} outputs ({} bytes committed, {} used)",
          inMemory.size(),
          commitMemory,
          usedMemory);
      inMemoryMerger.startMerge(new ArrayList<>(inMemory));
      inMemory.clear();
      commitMemory = 0;
    }
  }

  synchronized void spilled(SpilledSegment segment) {
    counters.increment(MergerCounter.MAP_OUTPUTS_SPILLED);
    spilled.add(segment);
  }

  synchronized void unreserve(long size) {
    usedMemory -= size;
  }

  @Override
  public void merged(List<InMemoryOutput<K, V>> inputs, SpilledSegment output) {
    long bytes = 0;
    for (InMemoryOutput<K, V> input : inputs) {
      bytes += input.getSize();
    }
    synchronized (this) {
      spilled.add(output);
      usedMemory -= bytes;
    }
    counters.increment(MergerCounter.IN_MEMORY_MERGES);
  }

  @Override
  public RawKeyValueIterator close() throws IOException {
    inMemoryMerger.close();
    List<InMemoryOutput<K, V>> memoryLeft;
    List<SpilledSegment> files;
    synchronized (this) {
      memoryLeft = new ArrayList<>(inMemory);
      files = new ArrayList<>(spilled);
      inMemory.clear();
      spilled.clear();
    }
    LOG.info(
        "{}: shuffle done; merging {} SpongeFiles and {} in-memory outputs",
        reduceId,
        files.size(),
        memoryLeft.size());
    return finalMerge.run(memoryLeft, files, this::unreserve);
  }

  /** Stops the background merge thread, if the shuffle ended before {@link #close()}. */
  void release() throws IOException {
    inMemoryMerger.close();
  }
}
