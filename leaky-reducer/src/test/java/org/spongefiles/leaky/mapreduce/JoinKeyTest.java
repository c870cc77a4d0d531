package org.spongefiles.leaky.mapreduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.SplittableRandom;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.Test;

class JoinKeyTest {
  public static final class UrlKey extends JoinKey<Text> {
    public UrlKey() {
      super(new Text());
    }
  }

  @Test
  void theRawComparatorOrdersLikeCompareToWithTheBuildSideFirst() throws IOException {
    JoinKey.Comparator comparator = new JoinKey.Comparator(UrlKey.class, Text.class);
    SplittableRandom random = new SplittableRandom(3);
    UrlKey a = new UrlKey();
    UrlKey b = new UrlKey();
    DataOutputBuffer one = new DataOutputBuffer();
    DataOutputBuffer two = new DataOutputBuffer();
    for (int i = 0; i < 5_000; i++) {
      a.side((byte) random.nextInt(2)).key().set("k" + random.nextInt(50));
      b.side((byte) random.nextInt(2)).key().set("k" + random.nextInt(50));
      one.reset();
      two.reset();
      a.write(one);
      b.write(two);
      int raw =
          comparator.compare(one.getData(), 0, one.getLength(), two.getData(), 0, two.getLength());
      assertThat(Integer.signum(raw))
          .as("%s vs %s", a, b)
          .isEqualTo(Integer.signum(a.compareTo(b)));
      if (a.side() != b.side()) {
        assertThat(raw < 0).isEqualTo(a.side() == JoinKey.BUILD);
      }
      if (a.key().equals(b.key())) {
        assertThat(a.hashCode()).as("both sides of a key hash alike").isEqualTo(b.hashCode());
      }
    }
  }

  @Test
  void aCorruptSideByteIsReported() {
    DataInputBuffer in = new DataInputBuffer();
    in.reset(new byte[] {7, 1, 'x'}, 3);
    assertThatThrownBy(() -> new UrlKey().readFields(in))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("side byte 7");
    assertThatThrownBy(() -> new UrlKey().side((byte) 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("side must be BUILD (0) or PROBE (1), not 2");
  }
}
