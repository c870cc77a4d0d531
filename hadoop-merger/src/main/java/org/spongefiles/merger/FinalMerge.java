package org.spongefiles.merger;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.LongConsumer;
import org.apache.hadoop.mapred.Merger.Segment;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.util.Progress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The merge that feeds the reducer. Hadoop merges on-disk segments in rounds of {@code
 * mapreduce.task.io.sort.factor} to save disk seeks; SpongeFiles have no seeks to save, so every
 * segment is read in one round. Only when their read buffers would exceed the {@link ReadBudget}
 * are the smallest segments merged first, into SpongeFiles, until the rest fit. Each merge shares
 * the budget among the SpongeFiles it reads ({@link ReadBudget#window(int)}).
 *
 * <ol>
 *   <li>In-memory outputs beyond {@code mapreduce.reduce.input.buffer.percent} are merged into a
 *       SpongeFile (smallest first, as Hadoop does), freeing the heap for the reducer.
 *   <li>While more SpongeFiles than the fan-in remain, the smallest are merged together, as many as
 *       bring the count down to the fan-in (or the fan-in itself).
 *   <li>The SpongeFiles and the kept in-memory outputs are merged in one round.
 * </ol>
 */
final class FinalMerge<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(FinalMerge.class);

  private final Spills<K, V> spills;
  private final SegmentMerger<K, V> merger;
  private final long maxInMemReduce;
  private final ReadBudget budget;
  private final CounterPublisher counters;
  private final Progress mergePhase;

  FinalMerge(
      Spills<K, V> spills,
      SegmentMerger<K, V> merger,
      long maxInMemReduce,
      ReadBudget budget,
      CounterPublisher counters,
      Progress mergePhase) {
    this.spills = spills;
    this.merger = merger;
    this.maxInMemReduce = maxInMemReduce;
    this.budget = budget;
    this.counters = counters;
    this.mergePhase = mergePhase;
  }

  /**
   * Merges everything the shuffle left.
   *
   * @param memory in-memory outputs not merged yet
   * @param spilled SpongeFiles of streamed map outputs and earlier merges
   * @param release told the bytes of in-memory outputs moved to a SpongeFile
   */
  RawKeyValueIterator run(
      List<InMemoryOutput<K, V>> memory, List<SpilledSegment> spilled, LongConsumer release)
      throws IOException {
    List<InMemoryOutput<K, V>> kept = new ArrayList<>(memory);
    List<SpilledSegment> files = new ArrayList<>(spilled);
    kept.sort(Comparator.comparingLong(InMemoryOutput::getSize));
    flushMemory(kept, files, release);
    reduceToFanIn(files);
    List<Segment<K, V>> segments = new ArrayList<>(files.size() + kept.size());
    int window = budget.window(files.size());
    for (SpilledSegment file : files) {
      segments.add(spills.segment(file, window));
    }
    for (InMemoryOutput<K, V> output : kept) {
      segments.add(spills.segment(output));
    }
    counters.add(MergerCounter.FINAL_MERGE_SEGMENTS, segments.size());
    LOG.info(
        "Final merge of {} SpongeFiles (read windows of {} bytes) and {} in-memory outputs in one"
            + " round (fan-in {})",
        files.size(),
        window,
        kept.size(),
        budget.fanIn());
    return merger.iterate(segments, mergePhase);
  }

  private void flushMemory(
      List<InMemoryOutput<K, V>> kept, List<SpilledSegment> files, LongConsumer release)
      throws IOException {
    long held = 0;
    for (InMemoryOutput<K, V> output : kept) {
      held += output.getSize();
    }
    List<Segment<K, V>> flushed = new ArrayList<>();
    long flushedBytes = 0;
    while (held > maxInMemReduce && !kept.isEmpty()) {
      InMemoryOutput<K, V> output = kept.remove(0);
      flushed.add(spills.segment(output));
      held -= output.getSize();
      flushedBytes += output.getSize();
    }
    if (!flushed.isEmpty()) {
      files.add(merger.merge("memory-flush", flushed, null));
      release.accept(flushedBytes);
      counters.increment(MergerCounter.MEMORY_FLUSHES);
    }
  }

  private void reduceToFanIn(List<SpilledSegment> files) throws IOException {
    int fanIn = budget.fanIn();
    while (files.size() > fanIn) {
      files.sort(Comparator.comparingLong(SpilledSegment::length));
      int take = Math.min(fanIn, files.size() - fanIn + 1);
      List<SpilledSegment> smallest = new ArrayList<>(files.subList(0, take));
      files.subList(0, take).clear();
      List<Segment<K, V>> segments = new ArrayList<>(take);
      int window = budget.window(take);
      for (SpilledSegment file : smallest) {
        segments.add(spills.segment(file, window));
      }
      files.add(merger.merge("intermediate-merge", segments, null));
      counters.increment(MergerCounter.INTERMEDIATE_MERGES);
    }
  }
}
