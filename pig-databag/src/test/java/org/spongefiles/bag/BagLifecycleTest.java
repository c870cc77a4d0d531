package org.spongefiles.bag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.PigMapReduce;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.Tuple;
import org.junit.jupiter.api.Test;
import org.spongefiles.bag.task.BagTask;
import org.spongefiles.bag.task.TaskSponges;
import org.spongefiles.core.config.ConfigException;

/** When a bag's SpongeFiles are freed, and which task they belong to. */
class BagLifecycleTest {

  private static DataBag spilledBag(BagFixture fixture, int tuples) {
    DataBag bag = fixture.factory.newDefaultBag();
    new RandomTuples(31, 100).list(tuples).forEach(bag::add);
    assertThat(bag.spill()).isEqualTo(tuples);
    return bag;
  }

  @Test
  void clearDeletesTheRuns() throws Exception {
    try (BagFixture fixture = new BagFixture()) {
      DataBag bag = spilledBag(fixture, 2_000);
      bag.add(new RandomTuples(32, 10).next());
      bag.spill();
      assertThat(fixture.task().liveFiles()).isEqualTo(2);
      bag.clear();
      assertThat(fixture.task().liveFiles()).isZero();
    }
  }

  @Test
  void anUnreachableBagsRunsAreDeletedWithoutClear() throws Exception {
    try (BagFixture fixture = new BagFixture()) {
      spilledBag(fixture, 2_000);
      spilledBag(fixture, 1_000);
      DataBag kept = spilledBag(fixture, 500);
      assertThat(fixture.task().liveFiles()).isEqualTo(3);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> {
                System.gc();
                return fixture.task().liveFiles() == 1;
              });
      assertThat(BagAssert.contents(kept)).hasSize(500);
    }
  }

  /**
   * clear() (or a merge) lets go of runs that iterators are still reading: each is deleted when its
   * last reader is done, or garbage when Pig dropped it half-way.
   */
  @Test
  void aRunStillBeingReadIsDeletedOnceItsLastReaderIsDoneOrCollected() throws Exception {
    try (BagFixture fixture = new BagFixture()) {
      DataBag bag = spilledBag(fixture, 2_000);
      Iterator<Tuple> reading = bag.iterator();
      reading.next();
      readOneTupleAndDrop(bag);
      bag.clear();
      assertThat(fixture.task().liveFiles()).as("still being read").isEqualTo(1);

      int rest = 0;
      while (reading.hasNext()) {
        reading.next();
        rest++;
      }
      assertThat(rest).isEqualTo(1_999);
      awaitNoLiveFiles(fixture);
    }
  }

  /** The same for the run that memory became while a sorted bag's reader was in it. */
  @Test
  void memorySpilledUnderADroppedSortedReaderIsDeletedOnceTheReaderIsCollected() throws Exception {
    try (BagFixture fixture = new BagFixture()) {
      DataBag bag = fixture.factory.newSortedBag(null);
      new RandomTuples(33, 100).list(2_000).forEach(bag::add);
      readOneTupleAndDrop(bag);
      assertThat(bag.spill()).isEqualTo(2_000);
      bag.clear();

      awaitNoLiveFiles(fixture);
      assertThat(BagAssert.contents(bag)).isEmpty();
    }
  }

  private static void readOneTupleAndDrop(DataBag bag) {
    assertThat((Object) bag.iterator().next()).isNotNull();
  }

  private static void awaitNoLiveFiles(BagFixture fixture) {
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              System.gc();
              return fixture.task().liveFiles() == 0;
            });
  }

  @Test
  void closingTheTasksDeletesWhatTheirBagsStillHold() throws Exception {
    BagFixture fixture = new BagFixture();
    DataBag bag;
    BagTask task;
    try {
      bag = spilledBag(fixture, 2_000);
      task = fixture.task();
      assertThat(task.liveFiles()).isEqualTo(1);
    } finally {
      fixture.close();
    }
    assertThat(task.isClosed()).isTrue();
    assertThat(task.liveFiles()).isZero();
    assertThat(bag.spill()).isZero();
    assertThatThrownBy(() -> BagAssert.contents(bag))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(TaskSponges.PROCESS_TASK);
  }

  @Test
  void bagsBelongToTheAttemptOfTheirThreadUntilItEnds() throws Exception {
    try (BagFixture fixture = new BagFixture()) {
      AtomicReference<BagTask> first = new AtomicReference<>();
      AtomicReference<BagTask> second = new AtomicReference<>();
      AtomicReference<DataBag> firstBag = new AtomicReference<>();
      Thread attempt =
          new Thread(
              () -> {
                PigMapReduce.sJobConfInternal.set(taskConf(fixture, "attempt_1_0001_m_000000_0"));
                firstBag.set(spilledBag(fixture, 1_000));
                first.set(fixture.tasks.current());
                PigMapReduce.sJobConfInternal.set(taskConf(fixture, "attempt_1_0001_m_000001_0"));
                spilledBag(fixture, 10);
                second.set(fixture.tasks.current());
              });
      attempt.start();
      attempt.join();

      assertThat(first.get().taskId()).isEqualTo("attempt_1_0001_m_000000_0");
      assertThat(((SpongeBag) firstBag.get()).owner()).isSameAs(first.get());
      assertThat(first.get().isClosed()).as("its thread started another attempt").isTrue();
      assertThat(second.get().taskId()).isEqualTo("attempt_1_0001_m_000001_0");
      assertThat(second.get().liveFiles()).isEqualTo(1);
      assertThat(fixture.tasks.tasks()).contains(second.get());

      fixture.tasks.sweep();
      assertThat(second.get().isClosed()).as("its thread ended").isTrue();
      assertThat(fixture.task().taskId()).isEqualTo(TaskSponges.PROCESS_TASK);
      assertThat(fixture.tasks.tasks()).containsExactly(fixture.task());
    }
  }

  /**
   * Pig runs a script's jobs one after another in one JVM (local mode), each task in a pool thread
   * that ends with its job, and keeps a finished task's bags reachable through its statics: the
   * janitor closes an attempt as its thread ends (well before the next job's first task would find
   * its SpongeFiles still open), and the closed attempt holds neither its configuration nor its
   * SpongeFiles while its bag is still reachable.
   */
  @Test
  void anAttemptIsClosedAsItsThreadEndsAndThenHoldsNothingOfItsTask() throws Exception {
    try (BagFixture fixture = new BagFixture()) {
      fixture.tasks.startJanitor();
      AtomicReference<BagTask> task = new AtomicReference<>();
      AtomicReference<DataBag> bag = new AtomicReference<>();
      AtomicReference<WeakReference<Configuration>> conf = new AtomicReference<>();
      CountDownLatch end = new CountDownLatch(1);
      Thread attempt =
          new Thread(
              () -> {
                Configuration taskConf = taskConf(fixture, "attempt_1_0002_r_000000_0");
                conf.set(new WeakReference<>(taskConf));
                PigMapReduce.sJobConfInternal.set(taskConf);
                bag.set(spilledBag(fixture, 1_000));
                task.set(fixture.tasks.current());
                awaitQuietly(end);
              });
      attempt.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> task.get() != null);
      assertThat(task.get().liveFiles()).isEqualTo(1);
      Thread.sleep(200);
      assertThat(task.get().isClosed()).as("its thread still runs").isFalse();

      end.countDown();
      attempt.join();
      long ended = System.nanoTime();
      await().atMost(Duration.ofSeconds(30)).until(() -> task.get().isClosed());
      assertThat(Duration.ofNanos(System.nanoTime() - ended))
          .as("closed as its thread ended, not at the janitor's next one-second round")
          .isLessThan(Duration.ofMillis(700));
      assertThat(task.get().liveFiles()).isZero();
      assertThat(fixture.tasks.tasks()).isEmpty();

      assertThat(((SpongeBag) bag.get()).owner()).isSameAs(task.get());
      // The task's configuration is reachable only through its closed task (held by its bag).
      await()
          .alias("the task's configuration collected")
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> {
                System.gc();
                return conf.get().get() == null;
              });
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void anInvalidSettingFailsTheFirstBagNamingTheKeyAndValue() throws Exception {
    Configuration bad = new Configuration(false);
    bad.set(PigBagOptions.MERGE_FANIN.key(), "1");
    try (BagFixture fixture = new BagFixture(64L << 20, bad)) {
      assertThatThrownBy(fixture.factory::newDefaultBag)
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining("sponge.pig.merge.fanin")
          .hasMessageContaining("1");
    }
    Configuration badCore = new Configuration(false);
    badCore.set("sponge.chunk.size", "lots");
    try (BagFixture fixture = new BagFixture(64L << 20, badCore)) {
      assertThatThrownBy(() -> fixture.factory.newSortedBag(null))
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining("sponge.chunk.size")
          .hasMessageContaining("lots");
    }
  }

  private static Configuration taskConf(BagFixture fixture, String attempt) {
    Configuration conf = new Configuration(fixture.conf);
    conf.set(TaskSponges.ATTEMPT_KEY, attempt);
    return conf;
  }
}
