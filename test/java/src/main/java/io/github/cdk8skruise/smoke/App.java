package io.github.cdk8skruise.smoke;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.cdk8s.ApiObjectMetadata;
import org.cdk8s.Chart;
import org.cdk8s.Duration;
import org.cdk8s.Size;
import org.cdk8s.plus28.ContainerProps;
import org.cdk8s.plus28.ContainerResources;
import org.cdk8s.plus28.ContainerSecurityContextProps;
import org.cdk8s.plus28.Cpu;
import org.cdk8s.plus28.CpuResources;
import org.cdk8s.plus28.LabelSelector;
import org.cdk8s.plus28.LabelSelectorOptions;
import org.cdk8s.plus28.MemoryResources;
import org.cdk8s.plus28.PercentOrAbsolute;

import io.github.cdk8skruise.CloneSet;
import io.github.cdk8skruise.CloneSetInPlaceUpdateStrategyOptions;
import io.github.cdk8skruise.CloneSetUpdateStrategy;
import io.github.cdk8skruise.KruiseControlPlane;
import io.github.cdk8skruise.PodUnavailableBudget;
import io.github.cdk8skruise.SidecarContainerProps;
import io.github.cdk8skruise.SidecarInjectPolicy;
import io.github.cdk8skruise.SidecarSet;
import io.github.cdk8skruise.SidecarSetRollingUpdateOptions;
import io.github.cdk8skruise.SidecarSetUpdateStrategy;

/**
 * The reference app (test/smoke/reference-app.ts) written in Java against the
 * cdk8s-kruise artifact. Usage: App &lt;output.yaml&gt;
 */
public final class App {
    private App() {
    }

    static org.cdk8s.App buildReferenceApp(final org.cdk8s.App app) {
        Chart chart = new Chart(app, "smoke");

        new KruiseControlPlane(chart, "kruise");

        CloneSet web = CloneSet.Builder.create(chart, "web")
            .metadata(ApiObjectMetadata.builder().name("web").build())
            .podMetadata(ApiObjectMetadata.builder().labels(Map.of("app", "web")).build())
            .replicas(4)
            .containers(List.of(ContainerProps.builder()
                .name("web")
                .image("nginxinc/nginx-unprivileged:1.27")
                .portNumber(8080)
                .resources(ContainerResources.builder()
                    .cpu(CpuResources.builder().request(Cpu.millis(100)).limit(Cpu.millis(500)).build())
                    .memory(MemoryResources.builder().request(Size.mebibytes(128)).limit(Size.mebibytes(256)).build())
                    .build())
                .securityContext(ContainerSecurityContextProps.builder().readOnlyRootFilesystem(false).build())
                .build()))
            .updateStrategy(CloneSetUpdateStrategy.inPlaceIfPossible(CloneSetInPlaceUpdateStrategyOptions.builder()
                .partition(PercentOrAbsolute.percent(50))
                .maxUnavailable(PercentOrAbsolute.absolute(1))
                .gracePeriod(Duration.seconds(10))
                .build()))
            .build();

        SidecarSet.Builder.create(chart, "log-agent")
            .metadata(ApiObjectMetadata.builder().name("log-agent").build())
            .selector(LabelSelector.of(LabelSelectorOptions.builder().labels(Map.of("app", "web")).build()))
            .containers(List.of(SidecarContainerProps.builder()
                .name("log-agent")
                .image("fluent/fluent-bit:3.1")
                .injectPolicy(SidecarInjectPolicy.AFTER_APP_CONTAINER)
                .build()))
            .updateStrategy(SidecarSetUpdateStrategy.rollingUpdate(SidecarSetRollingUpdateOptions.builder()
                .maxUnavailable(PercentOrAbsolute.absolute(1))
                .build()))
            .build();

        PodUnavailableBudget.Builder.create(chart, "web-budget")
            .metadata(ApiObjectMetadata.builder().name("web-budget").build())
            .target(web)
            .maxUnavailable(PercentOrAbsolute.percent(25))
            .build();

        return app;
    }

    public static void main(final String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: App <output.yaml>");
            System.exit(2);
        }
        String yaml = buildReferenceApp(new org.cdk8s.App()).synthYaml();
        Files.write(Path.of(args[0]), yaml.getBytes(StandardCharsets.UTF_8));
    }
}
