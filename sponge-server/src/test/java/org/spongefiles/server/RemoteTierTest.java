package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.ChunkInfo;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeInputStream;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.remote.RemoteTier;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.testkit.RandomBytes;
import org.spongefiles.testkit.SpongeTestConf;

/** SpongeFiles spilling through real sponge servers on 127.0.0.1, every byte verified. */
class RemoteTierTest {
  private static final int CHUNK = ServerFixture.CHUNK;
  @RegisterExtension final ServerFixture fixture = new ServerFixture();

  private static byte[] writeFile(SpongeFile file, long seed, long size) throws Exception {
    try (OutputStream out = file.output()) {
      return RandomBytes.write(out, seed, size);
    }
  }

  private static void assertReadsBack(SpongeFile file, byte[] digest, long size) throws Exception {
    for (int pass = 0; pass < 2; pass++) {
      try (SpongeInputStream in = file.input(pass == 0 ? CHUNK : 16 << 10)) {
        RandomBytes.Digest read = RandomBytes.read(in, pass);
        assertThat(read.bytes).isEqualTo(size);
        assertThat(read.sha256).isEqualTo(digest);
      }
    }
  }

  private static List<TierKind> tiers(SpongeFile file) {
    return file.chunks().stream().map(ChunkInfo::tier).collect(Collectors.toList());
  }

  @Test
  void aFileSpillsThroughOneServerAndComesBack() throws Exception {
    SpongeServer server = fixture.start("node-a", 64);
    try (SpongeTask task =
        SpongeTask.open(fixture.clientConf("node-x", 0, server), "attempt_r_1")) {
      SpongeFile file = task.create("remote");
      long size = 20L * CHUNK + 333;
      byte[] digest = writeFile(file, 1, size);
      assertThat(tiers(file)).containsOnly(TierKind.REMOTE);
      assertReadsBack(file, digest, size);
      assertThat(task.stats().bytesWritten(TierKind.REMOTE)).isEqualTo(size);
      assertThat(task.stats().bytesRead(TierKind.REMOTE)).isEqualTo(2 * size);
      assertThat(server.pool().freeChunks()).isLessThanOrEqualTo(64 - 21);
      file.delete();
    }
    assertThat(server.pool().freeChunks()).as("freed on delete and close").isEqualTo(64);
  }

  @Test
  void aClosedTaskLeavesNoThreadBehind() throws Exception {
    SpongeServer server = fixture.start("node-a", 64);
    try (SpongeTask task =
        SpongeTask.open(fixture.clientConf("node-x", 0, server), "attempt_r_threads")) {
      SpongeFile file = task.create("remote");
      byte[] digest = writeFile(file, 7, 6L * CHUNK);
      assertReadsBack(file, digest, 6L * CHUNK);
      assertThat(taskThreads("attempt_r_threads")).as("write-behind and read-ahead").isNotEmpty();
    }
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(taskThreads("attempt_r_threads"))
                    .as("threads of the closed task, and the watchdog of its connections")
                    .isEmpty());
  }

  /** Live threads of {@code task} (its I/O threads) and the remote channels' watchdog. */
  private static List<String> taskThreads(String task) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .map(Thread::getName)
        .filter(name -> name.contains(task) || name.equals("sponge-remote-watchdog"))
        .collect(Collectors.toList());
  }

  @Test
  void aRestartedServerStillServesTheChunksItsPoolKept() throws Exception {
    Configuration serverConf = fixture.serverConf("node-a", 64);
    SpongeServer first = SpongeServer.start(serverConf);
    SpongeServer again;
    try (SpongeTask task =
        SpongeTask.open(fixture.clientConf("node-x", 0, first), "attempt_r_restart")) {
      SpongeFile file = task.create("outlives-a-restart");
      long size = 10L * CHUNK + 17;
      byte[] digest = writeFile(file, 9, size);
      assertReadsBack(file, digest, size); // leaves idle connections in the task's pool
      first.close(); // those connections die; the pool and its chunks stay in /dev/shm
      again = fixture.start(serverConf);
      assertReadsBack(file, digest, size);
      assertThat(tiers(file)).containsOnly(TierKind.REMOTE);
      file.delete();
    }
    assertThat(again.pool().freeChunks()).as("freed on delete and close").isEqualTo(64);
  }

  @Test
  void theLocalPoolComesFirstThenServersThenDisk() throws Exception {
    SpongeServer a = fixture.start("node-a", 6);
    SpongeServer b = fixture.start("node-b", 6);
    try (SpongeTask task = SpongeTask.open(fixture.clientConf("node-x", 2, a, b), "attempt_r_2")) {
      SpongeFile file = task.create("spread");
      long size = 20L * CHUNK;
      byte[] digest = writeFile(file, 2, size);
      List<TierKind> tiers = tiers(file);
      assertThat(tiers.subList(0, 2)).containsOnly(TierKind.POOL);
      assertThat(tiers.stream().filter(t -> t == TierKind.REMOTE).count()).isEqualTo(12);
      assertThat(tiers.subList(14, 20)).containsOnly(TierKind.DISK);
      assertThat(a.pool().freeChunks()).isZero();
      assertThat(b.pool().freeChunks()).isZero();
      assertReadsBack(file, digest, size);
    }
  }

  @Test
  void aTaskSticksToTheServersItAlreadyUses() throws Exception {
    SpongeServer a = fixture.start("node-a", 40);
    SpongeServer b = fixture.start("node-b", 40);
    Configuration occupantConf = fixture.clientConf("node-y", 0, a);
    SpongeTask occupant = SpongeTask.open(occupantConf, "attempt_r_3_occupant");
    writeFile(occupant.create("fills-a"), 30, 40L * CHUNK);
    assertThat(a.pool().freeChunks()).isZero();

    Configuration conf = fixture.clientConf("node-x", 0, a, b); // a is listed first
    SpongeOptions.REMOTE_ALLOCATE_BATCH.set(conf, 1);
    SpongeOptions.REMOTE_REFUSAL_BACKOFF.set(conf, Duration.ofMillis(0));
    try (SpongeTask task = SpongeTask.open(conf, "attempt_r_3")) {
      SpongeFile first = task.create("first");
      writeFile(first, 3, 4L * CHUNK);
      RemoteTier remote = (RemoteTier) task.tiers().tier(TierKind.REMOTE);
      assertThat(remote.serversInUse()).containsExactly(ServerAddress.parse(b.endpoint()));

      occupant.close(); // a has room again, and it is first in the list
      assertThat(a.pool().freeChunks()).isEqualTo(40);
      SpongeFile second = task.create("second");
      byte[] digest = writeFile(second, 4, 10L * CHUNK);
      assertThat(second.chunks()).allMatch(c -> c.location().contains(b.endpoint()));
      assertThat(a.pool().freeChunks()).as("affinity: the task stays on b").isEqualTo(40);
      assertThat(b.pool().freeChunks()).isEqualTo(40 - 14);

      SpongeFile third = task.create("third");
      writeFile(third, 5, 30L * CHUNK); // b has 26 left: 4 more chunks overflow to a
      assertThat(b.pool().freeChunks()).isZero();
      assertThat(a.pool().freeChunks()).isEqualTo(36);
      assertThat(remote.serversInUse())
          .containsExactly(ServerAddress.parse(b.endpoint()), ServerAddress.parse(a.endpoint()));
      assertReadsBack(second, digest, 10L * CHUNK);
    }
  }

  @Test
  void aDeadServerInTheListIsSkipped() throws Exception {
    SpongeServer alive = fixture.start("node-b", 20);
    Configuration conf = fixture.clientConf("node-x", 0, alive);
    conf.set(
        SpongeOptions.REMOTE_SERVERS.key(),
        "127.0.0.1:" + SpongeTestConf.freePort() + "," + alive.endpoint());
    try (SpongeTask task = SpongeTask.open(conf, "attempt_r_4")) {
      SpongeFile file = task.create("skip-dead");
      byte[] digest = writeFile(file, 5, 5L * CHUNK);
      assertThat(tiers(file)).containsOnly(TierKind.REMOTE);
      assertThat(file.chunks()).allMatch(c -> c.location().contains(alive.endpoint()));
      assertReadsBack(file, digest, 5L * CHUNK);
    }
  }

  @Test
  void encryptedChunksLeaveOnlyCiphertextInTheServersMemory() throws Exception {
    SpongeServer server = fixture.start("node-a", 16);
    Configuration conf = fixture.clientConf("node-x", 0, server);
    SpongeOptions.REMOTE_ENCRYPT.set(conf, true);
    byte[] plain = new byte[3 * CHUNK];
    java.util.Arrays.fill(plain, (byte) 'P');
    try (SpongeTask task = SpongeTask.open(conf, "attempt_r_5")) {
      SpongeFile file = task.create("secret");
      try (OutputStream out = file.output()) {
        out.write(plain);
      }
      assertThat(file.chunks()).allMatch(c -> c.location().contains("encrypted"));
      for (org.spongefiles.core.pool.OwnerEntry entry : server.pool().owners()) {
        java.nio.ByteBuffer bytes = server.pool().chunkBuffer(entry.chunk());
        int same = 0;
        for (int i = 0; i < CHUNK; i++) {
          if (bytes.get(i) == 'P') {
            same++;
          }
        }
        assertThat(same).as("plaintext bytes in chunk %d", entry.chunk()).isLessThan(CHUNK / 100);
      }
      try (SpongeInputStream in = file.input(16 << 10)) {
        assertThat(in.readAllBytes()).isEqualTo(plain);
      }
    }
  }
}
