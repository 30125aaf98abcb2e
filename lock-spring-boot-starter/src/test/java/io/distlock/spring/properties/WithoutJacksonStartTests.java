package io.distlock.spring.properties;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A scheduler-only service — the starter and a JDBC driver, no JSON library — started in a JVM of its own whose class
 * path lacks every Jackson jar: the checks of the {@code distributed-lock.*} configuration work as with Jackson. A
 * duration without a unit and a typo fail the start, and a correct configuration starts.
 */
class WithoutJacksonStartTests {

    @Test
    void aDurationWithoutAUnitFailsTheStartWithoutJackson() throws Exception {
        Started service = start("--distributed-lock.default-ttl=30");
        assertThat(service.exitCode()).as(service.output()).isNotZero();
        assertThat(service.output()).contains("distributed-lock.default-ttl = '30'").contains("has no unit")
            .doesNotContain("Cannot check the distributed-lock.* properties");
    }

    @Test
    void aTypoFailsTheStartWithoutJackson() throws Exception {
        Started service = start("--distributed-lock.default-tll=30s");
        assertThat(service.exitCode()).as(service.output()).isNotZero();
        assertThat(service.output()).contains("distributed-lock.default-tll")
            .contains("did you mean distributed-lock.default-ttl?");
    }

    @Test
    void aCorrectConfigurationStartsWithoutJackson() throws Exception {
        Started service = start("--distributed-lock.default-ttl=30s");
        assertThat(service.exitCode()).as(service.output()).isZero();
        assertThat(service.output()).contains("STARTED jackson=false")
            .doesNotContain("Cannot check the distributed-lock.* properties");
    }

    private static Started start(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
                classPathWithoutJackson(), Service.class.getName()));
        command.addAll(Arrays.asList(args));
        Path log = Files.createTempFile("without-jackson", ".log");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                .start();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("The service did not end: " + Files.readString(log));
            }
            return new Started(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        }
        finally {
            Files.deleteIfExists(log);
        }
    }

    /** The tests' own class path, Jackson's jars left out. */
    private static String classPathWithoutJackson() throws IOException {
        String dependencies = Files.readString(Path.of("target", "spring-boot-class-path.txt")).strip();
        List<String> entries = new ArrayList<>(List.of(Path.of("target", "test-classes").toAbsolutePath().toString(),
                Path.of("target", "classes").toAbsolutePath().toString()));
        Arrays.stream(dependencies.split(File.pathSeparator))
            .filter(entry -> !Path.of(entry).getFileName().toString().contains("jackson"))
            .forEach(entries::add);
        assertThat(entries).as("the class path lacks Jackson").noneMatch(entry -> entry.contains("jackson-databind"));
        return entries.stream().collect(Collectors.joining(File.pathSeparator));
    }

    private record Started(int exitCode, String output) {
    }

    /** The service: scheduling and the starter on an in-memory H2 database, no web server. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableScheduling
    static class Service {

        public static void main(String[] args) {
            SpringApplication application = new SpringApplication(Service.class);
            application.setWebApplicationType(WebApplicationType.NONE);
            application.setDefaultProperties(java.util.Map.of("spring.datasource.url",
                    "jdbc:h2:mem:without-jackson;DB_CLOSE_DELAY=-1"));
            try {
                application.run(args).close();
            }
            catch (RuntimeException ex) {
                System.exit(1);
            }
            boolean jackson = ClassUtils.isPresent("com.fasterxml.jackson.databind.ObjectMapper", null)
                    || ClassUtils.isPresent("tools.jackson.databind.ObjectMapper", null);
            System.out.println("STARTED jackson=" + jackson);
        }
    }
}
