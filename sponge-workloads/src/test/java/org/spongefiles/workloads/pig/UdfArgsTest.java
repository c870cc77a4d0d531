package org.spongefiles.workloads.pig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A bad DEFINE argument fails naming the UDF, the argument and the value. */
class UdfArgsTest {

  @Test
  void badArgumentsAreNamed() {
    assertThatThrownBy(() -> new TopK("ten"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("TopK k : 'ten' (expected: an integer >= 1)");
    assertThatThrownBy(() -> new TopK("0")).hasMessage("TopK k : 0 (expected: >= 1)");
    assertThatThrownBy(() -> new SpamQuantiles("-1"))
        .hasMessage("SpamQuantiles spamField : -1 (expected: >= 0)");
    assertThat(UdfArgs.intAtLeast("TopK", "k", " 10 ", 1)).isEqualTo(10);
  }
}
