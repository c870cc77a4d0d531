package org.spongefiles.merger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HadoopReleaseTest {
  @Test
  void theSupportedReleasesPassAndOthersAreNamedWithTheSupportedOnes() {
    assertThat(HadoopRelease.isSupported("3.3.6")).isTrue();
    assertThat(HadoopRelease.isSupported("3.4.0")).isTrue();
    assertThat(HadoopRelease.isSupported("3.4.3")).isTrue();
    assertThat(HadoopRelease.isSupported("3.5.0")).isTrue();
    assertThat(HadoopRelease.isSupported("3.5.1-SNAPSHOT")).isTrue();
    assertThat(HadoopRelease.isSupported("3.3.5")).isFalse();
    assertThat(HadoopRelease.isSupported("3.2.4")).isFalse();
    assertThat(HadoopRelease.isSupported("3.6.0")).isFalse();
    assertThat(HadoopRelease.isSupported("2.10.2")).isFalse();
    assertThat(HadoopRelease.isSupported("Unknown")).isFalse();
    assertThatThrownBy(() -> HadoopRelease.check("3.2.4"))
        .isInstanceOf(SpongeMergerException.class)
        .hasMessageContaining("Hadoop 3.2.4")
        .hasMessageContaining("3.3.6")
        .hasMessageContaining("3.4.x")
        .hasMessageContaining("3.5.x");
  }

  @Test
  void theHadoopOfThisBuildIsSupported() {
    // Under the hadoop-3.3 and hadoop-3.5 profiles this is that release's VersionInfo.
    String running = HadoopRelease.running();
    assertThat(running).matches("3\\.[345]\\..*");
    HadoopRelease.check(running);
  }
}
