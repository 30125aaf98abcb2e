package io.distlock.spring.boot3;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each starter started on the other Spring Boot generation's class path, in a class loader of its own: the Spring
 * Boot 4 starter on this module's Spring Boot 3.5, and this module's starter on the Spring Boot 4 class path the
 * Spring Boot 4 starter's build writes down. Both must refuse to start, naming the supported generations and the
 * artifact to use instead, rather than start with {@code @DistributedLock} methods unguarded. The same harness
 * starts this module's starter on its own Spring Boot, to show that the refusal is the starter's.
 */
class OtherGenerationStartTests {

    private static final Path BOOT4_STARTER = Path.of("..", "lock-spring-boot-starter", "target");

    private static final Path CLASSES = Path.of("target", "classes");

    private static final Path TEST_CLASSES = Path.of("target", "test-classes");

    @Test
    void theSpringBoot4StarterRefusesSpringBoot35() throws Exception {
        List<Path> classPath = new ArrayList<>();
        classPath.add(TEST_CLASSES);
        classPath.add(existing(BOOT4_STARTER.resolve("classes")));
        thisModulesClassPath().stream().filter(entry -> !entry.equals(CLASSES.toAbsolutePath())
                && !entry.equals(TEST_CLASSES.toAbsolutePath())).forEach(classPath::add);

        Throwable failure = start(classPath);

        assertThat(messages(failure)).contains("io.distlock:lock-spring-boot-starter runs on Spring Boot 4.0 and 4.1, "
                + "not on Spring Boot 3.5.7: on Spring Boot 3.5 use io.distlock:lock-spring-boot3-starter");
    }

    @Test
    void thisStarterRefusesSpringBoot4() throws Exception {
        List<Path> classPath = new ArrayList<>();
        for (String entry : Files.readString(existing(BOOT4_STARTER.resolve("spring-boot-class-path.txt")),
                StandardCharsets.UTF_8).strip().split(File.pathSeparator)) {
            classPath.add(Path.of(entry));
        }
        classPath.add(CLASSES);
        classPath.add(TEST_CLASSES);

        Throwable failure = start(classPath);

        assertThat(messages(failure)).containsPattern("io\\.distlock:lock-spring-boot3-starter runs on Spring Boot "
                + "3\\.5, not on Spring Boot 4\\.[0-9.]+: on Spring Boot 4\\.0 and 4\\.1 use "
                + "io\\.distlock:lock-spring-boot-starter");
    }

    @Test
    void theHarnessStartsThisStarterOnItsOwnSpringBoot() throws Exception {
        assertThat(start(thisModulesClassPath())).isNull();
    }

    /** Starts {@link Application} on the class path; the failure, or {@code null} when it started (then closed). */
    private static Throwable start(List<Path> classPath) throws Exception {
        List<URL> urls = new ArrayList<>();
        for (Path entry : classPath) {
            urls.add(url(entry));
        }
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new),
                ClassLoader.getPlatformClassLoader())) {
            thread.setContextClassLoader(loader);
            Class<?> application = loader.loadClass(Application.class.getName());
            Object context = loader.loadClass("org.springframework.boot.SpringApplication")
                .getMethod("run", Class.class, String[].class)
                .invoke(null, application, new String[] { "--spring.main.web-application-type=none",
                        "--spring.main.banner-mode=off", "--spring.datasource.url=jdbc:h2:mem:other-generation" });
            Object lockManagers = context.getClass().getMethod("getBeanNamesForType", Class.class)
                .invoke(context, loader.loadClass("io.distlock.core.LockManager"));
            context.getClass().getMethod("close").invoke(context);
            assertThat((String[]) lockManagers).as("the lock manager of the started application").hasSize(1);
            return null;
        }
        catch (InvocationTargetException ex) {
            return ex.getCause();
        }
        finally {
            thread.setContextClassLoader(previous);
        }
    }

    private static List<Path> thisModulesClassPath() {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return Arrays.stream(classPath.split(File.pathSeparator)).map(entry -> Path.of(entry)
            .toAbsolutePath()).toList();
    }

    private static String messages(Throwable failure) {
        assertThat(failure).as("the start's failure").isNotNull();
        StringBuilder messages = new StringBuilder();
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            messages.append(cause.getClass().getName()).append(": ").append(cause.getMessage()).append('\n');
        }
        return messages.toString();
    }

    private static Path existing(Path path) {
        assertThat(path).as("built by lock-spring-boot-starter before this module in the reactor").exists();
        return path;
    }

    private static URL url(Path entry) {
        try {
            return entry.toAbsolutePath().toUri().toURL();
        }
        catch (MalformedURLException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** An application with nothing of its own: the starter on the class path is all it configures. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {
    }
}
