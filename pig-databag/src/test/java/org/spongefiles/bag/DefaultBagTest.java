package org.spongefiles.bag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.spongefiles.bag.BagAssert.assertSameSequence;
import static org.spongefiles.bag.BagAssert.contents;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.DefaultDataBag;
import org.apache.pig.data.Tuple;
import org.junit.jupiter.api.Test;
import org.spongefiles.bag.task.BagCounter;
import org.spongefiles.core.tier.TierKind;

/** Default bags against Pig's DefaultDataBag, fed and spilled the same way. */
class DefaultBagTest {

  /** Adds {@code input} to each bag, spilling every bag {@code spills} times on the way. */
  static void feed(List<Tuple> input, int spills, DataBag... bags) {
    int step = input.size() / (spills + 1);
    for (int i = 0; i < input.size(); i++) {
      for (DataBag bag : bags) {
        bag.add(input.get(i));
      }
      if ((i + 1) % step == 0 && (i + 1) / step <= spills) {
        for (DataBag bag : bags) {
          long spilled = bag.spill();
          if (bag.isDistinct()) {
            assertThat(spilled).isPositive();
          } else {
            assertThat(spilled).isEqualTo(step);
          }
        }
      }
    }
  }

  @Test
  void spilledSeveralTimesItReadsBackWhatPigsBagReads() throws Exception {
    try (BagFixture fixture = new BagFixture()) {
      List<Tuple> input = new RandomTuples(1, 1000).list(20_000);
      SpongeBag ours = (SpongeBag) fixture.factory.newDefaultBag();
      DataBag pigs = new DefaultDataBag();
      feed(input, 4, ours, pigs);

      assertThat(ours.runCount()).isEqualTo(4);
      assertThat(ours.inMemory()).isEqualTo(4_000);
      assertThat(ours.size()).isEqualTo(pigs.size()).isEqualTo(20_000);
      assertThat(fixture.task().count(BagCounter.BAG_SPILLS)).isEqualTo(4);
      assertThat(fixture.task().count(BagCounter.BAG_SPILLED_TUPLES)).isEqualTo(16_000);
      assertThat(fixture.stats().bytesWritten(TierKind.POOL)).isEqualTo(ours.spilledBytes());
      List<Tuple> expected = contents(pigs);
      assertSameSequence(expected, input);
      for (int pass = 0; pass < 3; pass++) {
        assertSameSequence(contents(ours), expected);
      }
      assertThat(fixture.stats().bytesRead(TierKind.POOL)).isEqualTo(3 * ours.spilledBytes());

      ours.clear();
      pigs.clear();
      assertThat(fixture.task().liveFiles()).isZero();
      assertThat(ours.size()).isZero();
      assertThat(contents(ours)).isEmpty();
    }
  }

  @Test
  void aSpillWhileReadingMemoryContinuesFromTheRunLikePigsBag() throws Exception {
    try (BagFixture fixture = new BagFixture()) {
      List<Tuple> input = new RandomTuples(2, 1000).list(10_000);
      DataBag ours = fixture.factory.newDefaultBag();
      DataBag pigs = new DefaultDataBag();
      feed(input, 1, ours, pigs);
      Iterator<Tuple> oursReader = ours.iterator();
      Iterator<Tuple> pigsReader = pigs.iterator();
      Iterator<Tuple> idle = ours.iterator();
      List<Tuple> oursRead = new ArrayList<>();
      List<Tuple> pigsRead = new ArrayList<>();
      for (int i = 0; i < 7_000; i++) {
        oursRead.add(oursReader.next());
        pigsRead.add(pigsReader.next());
      }
      assertThat(ours.spill()).isEqualTo(5_000);
      assertThat(pigs.spill()).isEqualTo(5_000);
      drain(oursReader, oursRead);
      drain(pigsReader, pigsRead);

      assertSameSequence(oursRead, pigsRead);
      assertSameSequence(oursRead, input);
      List<Tuple> late = new ArrayList<>();
      drain(idle, late);
      assertSameSequence(late, input);
      pigs.clear();
    }
  }

  /**
   * Pig's own bag loses tuples here: its iterator sees memory non-empty again after the adds and
   * keeps reading memory from its old position. Ours reads the run the spill wrote, then the adds.
   */
  @Test
  void tuplesAddedAfterASpillUnderAReaderAreReadAfterTheSpilledOnes() throws Exception {
    try (BagFixture fixture = new BagFixture()) {
      List<Tuple> input = new RandomTuples(5, 1000).list(12_000);
      DataBag ours = fixture.factory.newDefaultBag();
      feed(input.subList(0, 10_000), 1, ours);
      Iterator<Tuple> reader = ours.iterator();
      List<Tuple> read = new ArrayList<>();
      for (int i = 0; i < 7_000; i++) {
        read.add(reader.next());
      }
      assertThat(ours.spill()).isEqualTo(5_000);
      input.subList(10_000, 11_000).forEach(ours::add);
      assertThat(ours.spill()).isEqualTo(1_000);
      input.subList(11_000, 12_000).forEach(ours::add);
      drain(reader, read);

      assertSameSequence(read, input);
      assertSameSequence(contents(ours), input);
    }
  }

  @Test
  void aBagGivenAListOwnsItAndSpillsItWhole() throws Exception {
    try (BagFixture fixture = new BagFixture()) {
      List<Tuple> input = new RandomTuples(3, 100).list(5_000);
      SpongeBag ours = (SpongeBag) fixture.factory.newDefaultBag(new ArrayList<>(input));
      assertThat(ours.size()).isEqualTo(5_000);
      assertThat(ours.getMemorySize()).isGreaterThan(100_000);
      assertThat(ours.spill()).isEqualTo(5_000);
      assertThat(ours.getMemorySize()).isLessThan(1_000);
      assertSameSequence(contents(ours), input);
    }
  }

  @Test
  void runsLargerThanThePoolContinueOnDiskAndNothingGoesToJavaTmpdir() throws Exception {
    File tmp = new File(System.getProperty("java.io.tmpdir"));
    Set<String> before = new HashSet<>(Arrays.asList(tmp.list()));
    try (BagFixture fixture = new BagFixture(1L << 20, new Configuration(false))) {
      List<Tuple> input = new RandomTuples(4, 1000).list(30_000);
      SpongeBag ours = (SpongeBag) fixture.factory.newDefaultBag();
      feed(input, 3, ours);

      assertThat(fixture.stats().bytesWritten(TierKind.POOL)).isPositive();
      assertThat(fixture.stats().bytesWritten(TierKind.DISK)).isPositive();
      assertThat(ours.spilledBytes())
          .isEqualTo(
              fixture.stats().bytesWritten(TierKind.POOL)
                  + fixture.stats().bytesWritten(TierKind.DISK));
      assertSameSequence(contents(ours), input);
      Set<String> after = new HashSet<>(Arrays.asList(tmp.list()));
      after.removeAll(before);
      assertThat(after).noneMatch(name -> name.startsWith("pigbag") && name.endsWith(".tmp"));
    }
  }

  static void drain(Iterator<Tuple> iterator, List<Tuple> into) {
    while (iterator.hasNext()) {
      into.add(iterator.next());
    }
  }
}
