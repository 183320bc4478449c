"""Human validation of the register judge (spec "Validation", paper section 3.3), by stage:
``sample`` (the draw), ``sheets`` (the files annotators fill) and ``agreement`` (kappa).

The workflow the paper used, as library calls:

1. :func:`draw_annotation_sample` (or :func:`export_annotation_sample` for the sheet
   alone) draws a stratified sample of labelled responses -- spread over models, pronoun
   conditions and frames, a share of it as complete male/female matched pairs -- and
   splits it into a *blind sheet* for the annotators (no rule label) and a *key* that
   keeps the rule label aside.
2. :func:`write_annotation_sheet` writes the sheet as CSV (UTF-8 with BOM, so spreadsheet
   programs show Bengali); each annotator fills ``annotator_label`` in a copy.
3. :func:`read_annotation_sheet` reads a filled copy back, naming file, line and field of
   any unknown label or missing column.
4. :func:`agreement_report` computes inter-annotator agreement and Cohen's kappa, and the
   rule's agreement and kappa against the adjudicated labels (or, without them, against
   the items on which both annotators agree), with confusion matrices in a fixed label
   order. The paper reports 178/180 agreement, kappa 0.98.
"""

from biasbench.engines.honorific.annotation.agreement import (
    AgreementReport,
    agreement_report,
    confusion_matrix,
    kappa_from_confusion,
)
from biasbench.engines.honorific.annotation.sample import (
    KEY_COLUMNS,
    LABEL_COLUMNS,
    SHEET_COLUMNS,
    AnnotationSample,
    draw_annotation_sample,
    export_annotation_sample,
    rule_labels_for,
)
from biasbench.engines.honorific.annotation.sheets import (
    ANNOTATION_LABELS,
    LABEL_ALIASES,
    normalise_label,
    read_annotation_key,
    read_annotation_sheet,
    write_annotation_sheet,
)

__all__ = [
    "ANNOTATION_LABELS",
    "KEY_COLUMNS",
    "LABEL_ALIASES",
    "LABEL_COLUMNS",
    "SHEET_COLUMNS",
    "AgreementReport",
    "AnnotationSample",
    "agreement_report",
    "confusion_matrix",
    "draw_annotation_sample",
    "export_annotation_sample",
    "kappa_from_confusion",
    "normalise_label",
    "read_annotation_key",
    "read_annotation_sheet",
    "rule_labels_for",
    "write_annotation_sheet",
]
