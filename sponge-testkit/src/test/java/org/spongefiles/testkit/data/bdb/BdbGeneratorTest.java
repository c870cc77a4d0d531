package org.spongefiles.testkit.data.bdb;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The generator's shortcuts give what the full UserVisits row holds. */
class BdbGeneratorTest {
  @Test
  void subnetAndCountryCodeAreThoseOfTheFullRow() {
    BdbGenerator generator = new BdbGenerator(7, 25_000, 5_000);
    UserVisit visit = new UserVisit();
    for (long i = 0; i < 20_000; i++) {
      generator.visit(i, visit);
      assertThat(generator.subnet(i))
          .as("row %d", i)
          .isEqualTo(BdbGenerator.subnet(visit.sourceIp().toString()));
      assertThat(generator.countryCode(i))
          .as("row %d", i)
          .isEqualTo(visit.countryCode().toString());
    }
  }
}
