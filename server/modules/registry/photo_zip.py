"""Operator photos in bulk: one ZIP whose entries are named by the operator's CPF
(12345678909.jpg, 123.456.789-09.jpeg, or 2345678909.png where a spreadsheet dropped the leading
zero), each matched to an operator of this municipality only and stored exactly as a single
upload is (photos.store_operator_photo: decoded under core.images' pixel limit, re-encoded to a
600×800 JPEG without EXIF, audited "photo").

Bounded before anything is decompressed: the upload's bytes (request MAX_CONTENT_LENGTH, then
MAX_ZIP_BYTES), the number of entries, and each entry's and the whole archive's *declared*
uncompressed sizes (a zip bomb declares gigabytes in a few KB); each entry is then read with a
cap of its own, so a header that lies cannot inflate past it.
"""
import io
import posixpath
import re
import zipfile

from ...core.audit import record
from ...core.errors import ApiError
from ...core.validation import cpf_is_valid, mask_cpf
from ...extensions import db
from .models import Operator
from .photos import MAX_UPLOAD_BYTES, store_operator_photo

MAX_ZIP_BYTES = 16 * 1024 * 1024  # the request limit (MAX_CONTENT_LENGTH) too
MAX_ENTRIES = 1000
MAX_ENTRY_BYTES = MAX_UPLOAD_BYTES  # one photo, as the single upload allows
MAX_TOTAL_UNCOMPRESSED = 256 * 1024 * 1024
EXTENSIONS = (".jpg", ".jpeg", ".png", ".webp")
CPF_NAME = re.compile(r"[0-9][0-9.\- ]*")


def _refuse(message, status=422):
    return ApiError(status, "validation_error", "Arquivo recusado.", {"zip": [message]})


def cpf_of_name(name) -> str | None:
    """The 11-digit CPF an entry's file name stands for, or None: punctuation ignored, leading
    zeros that a spreadsheet dropped restored (a CPF has 11 digits)."""
    stem = posixpath.splitext(posixpath.basename(name))[0].strip()
    if not CPF_NAME.fullmatch(stem):
        return None
    digits = re.sub(r"\D", "", stem)
    if not 1 <= len(digits) <= 11:
        return None
    return digits.zfill(11)


def shown_name(name, cpf):
    """The entry's name as reports and the audit log keep it: a CPF in it masked like everywhere
    else in the back office (LGPD), the folder and extension kept so the clerk finds the file."""
    if cpf is None:
        return name
    folder, base = posixpath.split(name)
    return posixpath.join(folder, mask_cpf(cpf) + posixpath.splitext(base)[1])


def _entries(data):
    if not data:
        raise _refuse("Escolha um arquivo ZIP com as fotos.")
    if len(data) > MAX_ZIP_BYTES:
        raise _refuse(f"Arquivo grande demais (máximo {MAX_ZIP_BYTES // (1024 * 1024)} MB): divida as fotos "
                      "em mais de um ZIP.", 413)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError):
        raise _refuse("O arquivo não é um ZIP válido.") from None
    files = [i for i in infos if not i.is_dir()]
    if len(files) > MAX_ENTRIES:
        raise _refuse(f"Fotos demais num arquivo ({len(files)}; máximo {MAX_ENTRIES}): divida em mais de um ZIP.", 413)
    declared = sum(i.file_size for i in files)
    if declared > MAX_TOTAL_UNCOMPRESSED:
        raise _refuse(f"O ZIP descompactado teria {declared // (1024 * 1024)} MB "
                      f"(máximo {MAX_TOTAL_UNCOMPRESSED // (1024 * 1024)} MB): recusado.", 413)
    return archive, files


def _read(archive, info):
    """The entry's bytes, never more than MAX_ENTRY_BYTES + 1 whatever its header says."""
    with archive.open(info) as stream:
        return stream.read(MAX_ENTRY_BYTES + 1)


def import_photo_zip(municipality, data, actor=None) -> dict:
    """{"matched": [...], "unknown": [...], "bad": [...], "ignored": [...]}: each entry of the ZIP
    in one of them, with its name and what happened. CPFs shown masked (LGPD)."""
    archive, files = _entries(data)
    report = {"matched": [], "unknown": [], "bad": [], "ignored": []}
    wanted = {}
    for info in files:
        name = info.filename
        base = posixpath.basename(name)
        if base.startswith(".") or name.startswith("__MACOSX/"):
            report["ignored"].append({"entry": name, "reason": "Arquivo oculto do sistema."})
            continue
        cpf = cpf_of_name(name)
        shown = shown_name(name, cpf)
        if cpf is None:
            report["unknown"].append({"entry": name, "reason": "O nome do arquivo não é um CPF (ex.: 12345678909.jpg)."})
        elif not cpf_is_valid(cpf):
            report["unknown"].append({"entry": shown, "reason": "CPF inválido (dígitos verificadores não conferem)."})
        elif not base.lower().endswith(EXTENSIONS):
            report["bad"].append({"entry": shown, "cpf": mask_cpf(cpf), "reason": "Envie fotos JPEG, PNG ou WEBP."})
        elif cpf in wanted:
            report["ignored"].append({"entry": shown, "cpf": mask_cpf(cpf),
                                      "reason": "CPF repetido no arquivo: vale a primeira foto dele."})
        else:
            wanted[cpf] = info
    operators = {o.cpf: o for o in Operator.query.filter(Operator.municipality_id == municipality.id,
                                                         Operator.cpf.in_(list(wanted)))} if wanted else {}
    for cpf, info in wanted.items():
        operator = operators.get(cpf)
        shown = shown_name(info.filename, cpf)
        if operator is None:
            # Another municipality's operator is not found either: nothing of theirs is touched.
            report["unknown"].append({"entry": shown, "cpf": mask_cpf(cpf),
                                      "reason": "Nenhum operador deste município tem este CPF."})
            continue
        if info.file_size > MAX_ENTRY_BYTES:
            report["bad"].append({"entry": shown, "cpf": mask_cpf(cpf),
                                  "reason": f"Foto grande demais (máximo {MAX_ENTRY_BYTES // (1024 * 1024)} MB)."})
            continue
        try:
            content = _read(archive, info)
            if len(content) > MAX_ENTRY_BYTES:
                raise ApiError(413, "image_too_large", "Imagem recusada.",
                               {"photo": [f"Foto grande demais (máximo {MAX_ENTRY_BYTES // (1024 * 1024)} MB)."]})
            # Audited; an entry refused stages nothing (it fails reading or decoding, before the row
            # changes), so the photos matched are kept and the request commits them with the report.
            store_operator_photo(operator, content, actor=actor)
        except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError):
            report["bad"].append({"entry": shown, "cpf": mask_cpf(cpf),
                                  "reason": "Entrada do ZIP danificada ou protegida por senha."})
        except ApiError as err:
            report["bad"].append({"entry": shown, "cpf": mask_cpf(cpf),
                                  "reason": " ".join((err.fields or {}).get("photo", [err.message]))})
        else:
            report["matched"].append({"entry": shown, "cpf": mask_cpf(cpf), "operator_id": operator.id,
                                      "name": operator.name})
    record("operator_photo_batch", "operator", None, None,
           {kind: [{k: v for k, v in row.items() if k != "name"} for row in rows] for kind, rows in report.items()},
           municipality_id=municipality.id, actor=actor)
    db.session.flush()
    return report
