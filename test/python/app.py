"""The reference app (test/smoke/reference-app.ts) written in Python against the
cdk8s-kruise wheel. Usage: python app.py <output.yaml>"""
import sys

import cdk8s_plus_28 as kplus
from cdk8s import ApiObjectMetadata, App, Chart, Duration, Size
from cdk8s_kruise import (
    CloneSet,
    CloneSetUpdateStrategy,
    KruiseControlPlane,
    PodUnavailableBudget,
    SidecarContainerProps,
    SidecarInjectPolicy,
    SidecarSet,
    SidecarSetUpdateStrategy,
)


def build_reference_app(app: App) -> App:
    chart = Chart(app, "smoke")

    KruiseControlPlane(chart, "kruise")

    web = CloneSet(
        chart,
        "web",
        metadata=ApiObjectMetadata(name="web"),
        pod_metadata=ApiObjectMetadata(labels={"app": "web"}),
        replicas=4,
        containers=[
            kplus.ContainerProps(
                name="web",
                image="nginxinc/nginx-unprivileged:1.27",
                port_number=8080,
                resources=kplus.ContainerResources(
                    cpu=kplus.CpuResources(request=kplus.Cpu.millis(100), limit=kplus.Cpu.millis(500)),
                    memory=kplus.MemoryResources(request=Size.mebibytes(128), limit=Size.mebibytes(256)),
                ),
                security_context=kplus.ContainerSecurityContextProps(read_only_root_filesystem=False),
            ),
        ],
        update_strategy=CloneSetUpdateStrategy.in_place_if_possible(
            partition=kplus.PercentOrAbsolute.percent(50),
            max_unavailable=kplus.PercentOrAbsolute.absolute(1),
            grace_period=Duration.seconds(10),
        ),
    )

    SidecarSet(
        chart,
        "log-agent",
        metadata=ApiObjectMetadata(name="log-agent"),
        selector=kplus.LabelSelector.of(labels={"app": "web"}),
        containers=[
            SidecarContainerProps(
                name="log-agent",
                image="fluent/fluent-bit:3.1",
                inject_policy=SidecarInjectPolicy.AFTER_APP_CONTAINER,
            ),
        ],
        update_strategy=SidecarSetUpdateStrategy.rolling_update(
            max_unavailable=kplus.PercentOrAbsolute.absolute(1),
        ),
    )

    PodUnavailableBudget(
        chart,
        "web-budget",
        metadata=ApiObjectMetadata(name="web-budget"),
        target=web,
        max_unavailable=kplus.PercentOrAbsolute.percent(25),
    )

    return app


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: app.py <output.yaml>")
    yaml = build_reference_app(App()).synth_yaml()
    with open(sys.argv[1], "w", encoding="utf-8", newline="") as out:
        out.write(yaml)
