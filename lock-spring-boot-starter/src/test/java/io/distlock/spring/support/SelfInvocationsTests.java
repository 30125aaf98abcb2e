package io.distlock.spring.support;

import java.lang.reflect.Method;
import java.util.List;

import io.distlock.spring.DistributedLock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The calls a bean class's own bytecode makes to its guarded methods, which a Spring AOP proxy cannot see: direct
 * calls, calls in lambdas compiled into the class, calls an inherited method makes; not calls from other classes.
 */
class SelfInvocationsTests {

    @Test
    void aMethodCallingAGuardedMethodOnItselfIsFound() throws Exception {
        assertThat(SelfInvocations.find(Reports.class, List.of(generate(Reports.class))))
                .containsExactly("generate(String) from a lambda in lambdaCaller(), nightly()");
    }

    @Test
    void aCallAnInheritedMethodMakesIsFoundForTheSubclass() throws Exception {
        assertThat(SelfInvocations.find(MonthlyReports.class, List.of(generate(MonthlyReports.class))))
                .containsExactly("generate(String) from a lambda in lambdaCaller(), nightly()");
    }

    @Test
    void callsFromOtherClassesAndClassesWithoutSelfCallsAreNotReported() throws Exception {
        assertThat(SelfInvocations.find(Quiet.class, List.of(Quiet.class.getMethod("generate", String.class))))
                .isEmpty();
    }

    @Test
    void aCallThroughAnInjectedSelfReferenceIsNotReported() throws Exception {
        assertThat(SelfInvocations.find(SelfInjected.class, List.of(generate(SelfInjected.class)))).isEmpty();
    }

    @Test
    void aMethodReferenceBoundToItselfIsFound() throws Exception {
        assertThat(SelfInvocations.find(MethodReference.class, List.of(generate(MethodReference.class))))
                .containsExactly("generate(String) from a method reference in later()");
    }

    @Test
    void aCallOfAnUnguardedOverloadIsNotReported() throws Exception {
        assertThat(SelfInvocations.find(Overloads.class, List.of(generate(Overloads.class)))).isEmpty();
    }

    private static Method generate(Class<?> type) throws NoSuchMethodException {
        return type.getMethod("generate", String.class);
    }

    /** Calls its guarded method itself, directly and in a lambda. */
    static class Reports {

        @DistributedLock(resource = "report:#{#month}")
        public String generate(String month) {
            return month;
        }

        public String nightly() {
            return generate("2026-05");
        }

        public Runnable lambdaCaller() {
            return () -> generate(toString());
        }
    }

    /** Calls its guarded method through its proxy, injected into a field of its own: guarded. */
    static class SelfInjected {

        private SelfInjected self;

        private final String month = "2026-05";

        @DistributedLock(resource = "report:#{#month}")
        public String generate(String month) {
            return month;
        }

        public String nightly() {
            return self.generate(month + this.month.length());
        }

        public String ternary(boolean now) {
            return (now ? self : this.self).generate(month);
        }
    }

    /** Hands out a method reference bound to itself, which calls it past the proxy. */
    static class MethodReference {

        @DistributedLock(resource = "report:#{#month}")
        public String generate(String month) {
            return month;
        }

        public java.util.function.Function<String, String> later() {
            return this::generate;
        }
    }

    /** Calls an unguarded overload of its guarded method. */
    static class Overloads {

        @DistributedLock(resource = "report:#{#month}")
        public String generate(String month) {
            return month;
        }

        public String generate(int month) {
            return String.valueOf(month);
        }

        public String nightly() {
            return generate(5);
        }
    }

    /** Inherits the self-call. */
    static class MonthlyReports extends Reports {
    }

    /** Calls nothing of its own; another class calls it. */
    static class Quiet {

        @DistributedLock(resource = "quiet")
        public String generate(String month) {
            return month;
        }

        static String fromOutside(Quiet quiet) {
            return new Object() {
                String call() {
                    return quiet.generate("x");
                }
            }.call();
        }
    }
}
