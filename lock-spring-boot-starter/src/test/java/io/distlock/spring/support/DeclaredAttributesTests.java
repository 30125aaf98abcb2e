package io.distlock.spring.support;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The one reader of declared attributes: each problem told in one form, naming where, the attribute, what was
 * declared and what it resolved to, and all of a declaration's problems thrown together.
 */
class DeclaredAttributesTests {

    private static final Map<String, String> PROPERTIES = Map.of("jobs.ttl", "45", "jobs.hold", "PT2H");

    private final DeclaredAttributes attributes = DeclaredAttributes.onMethod("@OncePerSlot", "Jobs.run()",
            DeclaredAttributesTests::resolve);

    @Test
    void everyProblemIsToldInOneFormAndAllAreThrownTogether() {
        assertThat(attributes.duration("ttl", "${jobs.ttl}", Duration.ZERO)).isNull();
        assertThat(attributes.text("job", "${no.such.job}")).isNull();
        assertThat(attributes.within("maxHold", "${jobs.hold}", attributes.duration("maxHold", "${jobs.hold}",
                Duration.ZERO), Duration.ofMillis(1), Duration.ofHours(1), "distributed-lock.max-hold")).isNull();
        assertThat(attributes.wholeMillis("minHold", "", Duration.ofNanos(1))).isNull();
        assertThatExceptionOfType(InvalidLockDeclarationException.class).isThrownBy(attributes::throwIfAny)
            .satisfies(ex -> assertThat(ex.problems()).containsExactly(
                    "@OncePerSlot on Jobs.run(): attribute 'ttl' = '${jobs.ttl}' (resolved '45') has no unit: a "
                            + "number alone is not read as milliseconds; use " + DurationText.FORMS,
                    "@OncePerSlot on Jobs.run(): attribute 'job' = '${no.such.job}' has a placeholder that cannot be "
                            + "resolved: no property no.such.job",
                    "@OncePerSlot on Jobs.run(): attribute 'maxHold' = '${jobs.hold}' must be at most PT1H "
                            + "(distributed-lock.max-hold)",
                    "@OncePerSlot on Jobs.run(): attribute 'minHold' = '(default PT0.000000001S)' must be a whole "
                            + "number of milliseconds"));
    }

    @Test
    void blankAttributesTakeTheFallbackAndGoodOnesTheirValue() {
        assertThat(attributes.duration("ttl", " ", Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(30));
        assertThat(attributes.duration("maxHold", "${jobs.hold}", Duration.ZERO)).isEqualTo(Duration.ofHours(2));
        assertThat(attributes.text("resource", "job:#{#id}")).isEqualTo("job:#{#id}");
        assertThat(attributes.problems()).isEmpty();
        attributes.throwIfAny();
    }

    @Test
    void withoutAResolverAPlaceholderIsAProblemToo() {
        DeclaredAttributes unresolved = new DeclaredAttributes("@EnableDistributedLocks ", null);
        assertThat(unresolved.text("tableName", "${locks.table}")).isNull();
        assertThat(unresolved.problems()).containsExactly("@EnableDistributedLocks attribute 'tableName' = "
                + "'${locks.table}' has a placeholder, but the bean factory cannot resolve placeholders");
    }

    private static String resolve(String text) {
        String name = text.substring(2, text.length() - 1);
        String value = PROPERTIES.get(name);
        if (value == null) {
            throw new IllegalArgumentException("no property " + name);
        }
        return value;
    }
}
