package org.spongefiles.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.config.ConfigValues;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;

/** Using a SpongeFile in the wrong state fails with a sentence naming the file and its state. */
class SpongeFileStateTest {
  private Path poolDir;
  private Path diskDir;
  private SpongeTask task;

  @BeforeEach
  void setUp() throws Exception {
    poolDir = TestDirs.newShmDir("st-pool");
    diskDir = TestDirs.newShmDir("st-disk");
    task = SpongeTask.open(SpongeTestConf.of(poolDir, diskDir, 1 << 20, 64 << 10), "attempt_st_1");
  }

  @AfterEach
  void tearDown() throws Exception {
    task.close();
    TestDirs.deleteTree(poolDir);
    TestDirs.deleteTree(diskDir);
  }

  @Test
  void readBeforeCloseNamesTheFileAndState() throws Exception {
    SpongeFile file = task.create("bag-spill-3");
    file.output().write(42);
    assertThatThrownBy(file::input)
        .isInstanceOf(SpongeFileStateException.class)
        .hasMessage(
            "Cannot read SpongeFile 'bag-spill-3' of task attempt_st_1: it is being written: it"
                + " can be read only after its output stream is closed")
        .extracting(e -> ((SpongeFileStateException) e).state())
        .isEqualTo(SpongeFileState.WRITING);
  }

  @Test
  void writeAfterCloseIsRefused() throws Exception {
    SpongeFile file = task.create("merge-0");
    OutputStream out = file.output();
    out.write(new byte[] {1, 2, 3});
    out.close();
    out.close(); // closing twice is harmless
    assertThatThrownBy(() -> out.write(4))
        .isInstanceOf(SpongeFileStateException.class)
        .hasMessageContaining("Cannot write SpongeFile 'merge-0' of task attempt_st_1")
        .hasMessageContaining("it is closed: it was written and can now only be read or deleted");
    assertThatThrownBy(file::output).isInstanceOf(SpongeFileStateException.class);
    try (SpongeInputStream in = file.input()) {
      assertThat(in.readAllBytes()).containsExactly(1, 2, 3);
    }
  }

  @Test
  void anythingAfterDeleteIsRefusedButDeletingAgainIsHarmless() throws Exception {
    SpongeFile file = task.create("gone");
    try (OutputStream out = file.output()) {
      out.write(new byte[100_000]);
    }
    SpongeInputStream open = file.input();
    file.delete();
    file.delete();
    assertThat(file.state()).isEqualTo(SpongeFileState.DELETED);
    assertThatThrownBy(file::input)
        .isInstanceOf(SpongeFileStateException.class)
        .hasMessageContaining("it is deleted: its chunks were released");
    assertThatThrownBy(file::output).isInstanceOf(SpongeFileStateException.class);
    assertThatThrownBy(open::read)
        .as("a reader opened before the delete")
        .isInstanceOf(SpongeFileStateException.class);
    assertThat(task.files()).doesNotContain(file);
  }

  @Test
  void readersAreIndependentAndCanBeManyAtOnce() throws Exception {
    SpongeFile file = task.create("multi");
    byte[] data = org.spongefiles.testkit.RandomBytes.array(9, 300_000);
    try (OutputStream out = file.output()) {
      out.write(data);
    }
    try (SpongeInputStream a = file.input();
        SpongeInputStream b = file.input()) {
      byte[] first = a.readNBytes(1000);
      byte[] all = b.readAllBytes();
      byte[] rest = a.readAllBytes();
      assertThat(all).isEqualTo(data);
      assertThat(first).isEqualTo(java.util.Arrays.copyOf(data, 1000));
      assertThat(rest).isEqualTo(java.util.Arrays.copyOfRange(data, 1000, data.length));
    }
  }

  @Test
  void closingTheTaskDeletesEveryFileAndFreesThePool() throws Exception {
    SpongeFile written = task.create("written");
    try (OutputStream out = written.output()) {
      out.write(new byte[300_000]);
    }
    SpongeFile open = task.create("half-written");
    open.output().write(new byte[100_000]);
    assertThat(task.tiers().pool().pool().freeChunks()).isLessThan(16);
    task.close();
    assertThat(written.state()).isEqualTo(SpongeFileState.DELETED);
    assertThat(open.state()).isEqualTo(SpongeFileState.DELETED);
    try (org.spongefiles.core.pool.SharedPool pool =
        org.spongefiles.core.pool.SharedPool.open(
            SpongeSettings.poolSpec(
                ConfigValues.reading(SpongeTestConf.of(poolDir, diskDir, 1 << 20, 64 << 10))))) {
      assertThat(pool.freeChunks()).isEqualTo(16);
      assertThat(pool.owners()).isEmpty();
    }
    assertThatThrownBy(() -> task.create("late"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }
}
