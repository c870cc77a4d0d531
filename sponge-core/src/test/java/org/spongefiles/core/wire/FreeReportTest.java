package org.spongefiles.core.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The frames of the push design: a server's REPORT, a relay's REPORTS, the leader's RACK_LIST and
 * RACK_RELAY.
 */
class FreeReportTest {

  @Test
  void aReportRoundTripsAndBecomesItsRackEntry() throws Exception {
    FreeReport sent = new FreeReport("node-7:7071", 1 << 20, 4096, 1234);
    FreeReport got = FreeReport.decode(sent.encode(), "server:1");
    assertThat(got.endpoint).isEqualTo("node-7:7071");
    assertThat(got.chunkSize).isEqualTo(1 << 20);
    assertThat(got.chunks).isEqualTo(4096);
    assertThat(got.freeChunks).isEqualTo(1234);
    FreeList.Entry entry = got.entry();
    assertThat(entry.endpoint).isEqualTo("node-7:7071");
    assertThat(entry.freeChunks).isEqualTo(1234);
    assertThat(entry.chunks).isEqualTo(4096);
    assertThat(entry.chunkSize).isEqualTo(1 << 20);
  }

  @Test
  void aTruncatedReportNamesThePeerAndField() {
    ByteBuffer whole = new FreeReport("node-7:7071", 1024, 8, 8).encode();
    ByteBuffer cut = whole.limit(whole.limit() - 2);
    assertThatThrownBy(() -> FreeReport.decode(cut, "10.0.0.7:4000"))
        .isInstanceOf(WireException.class)
        .hasMessageContaining("10.0.0.7:4000")
        .hasMessageContaining("freeChunks")
        .satisfies(
            e -> assertThat(((WireException) e).code()).isEqualTo(ErrorCode.MALFORMED_FRAME));
  }

  @Test
  void aReportWithTrailingBytesIsMalformed() {
    ByteBuffer body = new FreeReport("n:1", 1024, 8, 8).encode();
    ByteBuffer longer = ByteBuffer.allocate(body.remaining() + 1).put(body).put((byte) 0).flip();
    assertThatThrownBy(() -> FreeReport.decode(longer, "peer:1"))
        .isInstanceOf(WireException.class)
        .satisfies(
            e -> assertThat(((WireException) e).code()).isEqualTo(ErrorCode.MALFORMED_FRAME));
  }

  @Test
  void moreFreeThanThereAreChunksIsRefusedWithTheValues() {
    ByteBuffer body = new FreeReport("node-9:7071", 1024, 8, 9).encode();
    assertThatThrownBy(() -> FreeReport.decode(body, "peer:1"))
        .isInstanceOf(WireException.class)
        .hasMessageContaining("node-9:7071")
        .hasMessageContaining("chunks 8, freeChunks 9");
    ByteBuffer zeroSize = new FreeReport("n:1", 0, 8, 1).encode();
    assertThatThrownBy(() -> FreeReport.decode(zeroSize, "peer:1"))
        .hasMessageContaining("chunkSize 0");
  }

  @Test
  void aRackListIsAFreeListBody() throws Exception {
    FreeList pushed =
        new FreeList(
            0,
            "/rack-3",
            List.of(new FreeList.Entry("a:1", 5, 8, 1024), new FreeList.Entry("b:1", 0, 8, 1024)));
    FreeList got = FreeList.decode(pushed.encode(), "tracker:1");
    assertThat(got.rack).isEqualTo("/rack-3");
    assertThat(got.servers)
        .extracting(e -> e.endpoint + "=" + e.freeChunks)
        .containsExactly("a:1=5", "b:1=0");
  }

  @Test
  void aRelayedListCarriesItsLeaderSequenceRelaysAndList() throws Exception {
    FreeList list =
        new FreeList(
            0,
            "/rack-3",
            List.of(
                new FreeList.Entry("a:1", 5, 8, 1024),
                new FreeList.Entry("b:1", 0, 8, 1024),
                new FreeList.Entry("c:1", 8, 8, 1024)));
    RelayedList sent =
        new RelayedList("tracker-2:7072", 1_795_000_000_000_123L, List.of("a:1", "b:1"), list);
    RelayedList got = RelayedList.decode(sent.encode(), "tracker:1");
    assertThat(got.leader).isEqualTo("tracker-2:7072");
    assertThat(got.sequence).isEqualTo(1_795_000_000_000_123L);
    assertThat(got.relays).containsExactly("a:1", "b:1");
    assertThat(got.list.rack).isEqualTo("/rack-3");
    assertThat(got.list.servers)
        .extracting(e -> e.endpoint + "=" + e.freeChunks)
        .containsExactly("a:1=5", "b:1=0", "c:1=8");
    assertThat(got.lists("c:1")).isTrue();
    assertThat(got.lists("d:1")).isFalse();
  }

  @Test
  void aTruncatedRelayedListNamesThePeerAndField() {
    ByteBuffer whole =
        new RelayedList(
                "t:1",
                7,
                List.of("a:1"),
                new FreeList(0, "/r", List.of(new FreeList.Entry("a:1", 1, 2, 3))))
            .encode();
    ByteBuffer cut = whole.limit(whole.limit() - 3);
    assertThatThrownBy(() -> RelayedList.decode(cut, "10.0.0.8:7071"))
        .isInstanceOf(WireException.class)
        .hasMessageContaining("10.0.0.8:7071")
        .hasMessageContaining("chunkSize")
        .satisfies(
            e -> assertThat(((WireException) e).code()).isEqualTo(ErrorCode.MALFORMED_FRAME));
    ByteBuffer manyRelays = ByteBuffer.allocate(64);
    manyRelays.putShort((short) 3).put("t:1".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    manyRelays.putLong(7).putInt(1_000_000).flip();
    assertThatThrownBy(() -> RelayedList.decode(manyRelays, "10.0.0.8:7071"))
        .isInstanceOf(WireException.class)
        .hasMessageContaining("relay");
  }

  @Test
  void theNewOpcodesAreKnown() {
    assertThat(Opcode.fromCode((byte) 24)).isEqualTo(Opcode.REPORT);
    assertThat(Opcode.fromCode((byte) 25)).isEqualTo(Opcode.RACK_LIST);
    assertThat(Opcode.fromCode((byte) 26)).isEqualTo(Opcode.RACK_RELAY);
    assertThat(Opcode.fromCode((byte) 27)).isEqualTo(Opcode.REPORTS);
  }

  @Test
  void aBatchOfReportsRoundTripsInOrder() throws Exception {
    FreeReports sent =
        new FreeReports(
            List.of(
                new FreeReport("a:1", 1 << 20, 4096, 4000),
                new FreeReport("bb:2", 1 << 20, 4096, 0),
                new FreeReport("c:3", 1024, 8, 8)));
    FreeReports got = FreeReports.decode(sent.encode(), "relay:1");
    assertThat(got.reports)
        .extracting(r -> r.toString())
        .containsExactly(
            "a:1: 4000 of 4096 chunks of 1048576 free",
            "bb:2: 0 of 4096 chunks of 1048576 free",
            "c:3: 8 of 8 chunks of 1024 free");
    assertThat(FreeReports.decode(new FreeReports(List.of()).encode(), "relay:1").reports)
        .isEmpty();
  }

  @Test
  void manyReportsSplitIntoBatchesThatFitAFrame() throws Exception {
    List<FreeReport> reports = new java.util.ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      reports.add(new FreeReport("node-" + i + ".rack-9.example.com:7071", 1 << 20, 4096, i));
    }
    List<FreeReports> batches = FreeReports.inBatches(reports, Frame.MAX_CONTROL_PAYLOAD);
    assertThat(batches).hasSizeGreaterThan(1);
    List<FreeReport> back = new java.util.ArrayList<>();
    for (FreeReports batch : batches) {
      ByteBuffer body = batch.encode();
      assertThat(body.remaining()).isLessThanOrEqualTo(Frame.MAX_CONTROL_PAYLOAD);
      back.addAll(FreeReports.decode(body, "relay:1").reports);
    }
    assertThat(back)
        .extracting(r -> r.freeChunks)
        .containsExactlyElementsOf(
            reports.stream().map(r -> r.freeChunks).collect(java.util.stream.Collectors.toList()));
    assertThat(FreeReports.inBatches(List.of(), Frame.MAX_CONTROL_PAYLOAD)).isEmpty();
  }

  @Test
  void aBadBatchNamesThePeerAndWhatIsWrong() {
    ByteBuffer whole =
        new FreeReports(
                List.of(new FreeReport("a:1", 1024, 8, 8), new FreeReport("b:1", 1024, 8, 1)))
            .encode();
    ByteBuffer cut = whole.limit(whole.limit() - 1);
    assertThatThrownBy(() -> FreeReports.decode(cut, "10.0.0.9:7071"))
        .isInstanceOf(WireException.class)
        .hasMessageContaining("10.0.0.9:7071")
        .hasMessageContaining("freeChunks");
    ByteBuffer tooMany = ByteBuffer.allocate(8).putInt(1_000).putInt(0).flip();
    assertThatThrownBy(() -> FreeReports.decode(tooMany, "10.0.0.9:7071"))
        .isInstanceOf(WireException.class)
        .hasMessageContaining("report count 1000");
    ByteBuffer lying = new FreeReports(List.of(new FreeReport("a:1", 1024, 8, 9))).encode();
    assertThatThrownBy(() -> FreeReports.decode(lying, "10.0.0.9:7071"))
        .hasMessageContaining("chunks 8, freeChunks 9");
    ByteBuffer body = new FreeReports(List.of(new FreeReport("a:1", 1024, 8, 8))).encode();
    ByteBuffer longer = ByteBuffer.allocate(body.remaining() + 1).put(body).put((byte) 0).flip();
    assertThatThrownBy(() -> FreeReports.decode(longer, "10.0.0.9:7071"))
        .satisfies(
            e -> assertThat(((WireException) e).code()).isEqualTo(ErrorCode.MALFORMED_FRAME));
  }
}
