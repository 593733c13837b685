"""Bad, hostile and awkward uploads, built in memory (nothing large is stored).

``CORPUS`` maps a file name to a function returning the file's bytes.
``EXPECT`` says what the app must do with each: ``"error"`` (a clear message,
the previous dataset stays in use) or ``"ok"`` (read; maybe with notes).
"""

import io
import zipfile

import numpy as np
import pandas as pd

HOSTILE = ['a"];x [label="pwn', "<script>alert(1)</script>", "<b>x</b>", "back\\slash\\n",
           ":red[big] $x$ **bold**"]


def _csv(frame, **kw):
    return frame.to_csv(index=False, **kw).encode("utf-8")


def _rng():
    return np.random.default_rng(0)


def empty():
    return b""


def garbage():
    return _rng().integers(0, 256, 4096, dtype=np.uint8).tobytes()


def png_named_csv():
    return b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(64)


def zip_named_csv():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("inside.csv", "a,b\n1,2\n")
    return buf.getvalue()


def ragged():
    return b"x,y,label\n1,2,a\n3,4,b,EXTRA\n5,a\n6,7,a\n8,9,b\n1,1,b,2,3\n2,2,a\n"


def one_row():
    return b"x,y,label\n1,2,a\n"


def one_column():
    return b"label\na\nb\na\nb\n"


def target_all_missing():
    return b"x,y,label\n1,2,\n3,4,\n5,6,\n7,8,\n"


def single_class():
    return b"x,y,label\n1,2,a\n3,4,a\n5,6,a\n7,8,a\n9,1,a\n"


def id_target():
    n = 400
    rng = _rng()
    return _csv(pd.DataFrame({"x": rng.normal(size=n), "id": [f"ID-{i:05d}" for i in range(n)]}))


def infinities():
    return b"x,y,label\n1,inf,a\n2,-inf,b\n3,4,a\n4,5,b\n5,6,a\n6,7,b\n7,8,a\n8,9,b\n"


def duplicate_names():
    return b"a,a,b,b,label\n1,2,3,4,x\n2,3,4,5,y\n3,4,5,6,x\n4,5,6,7,y\n5,6,7,8,x\n"


def mixed_types():
    return (b"x,size,label\n1,10,a\n2,twenty,b\n3,30,a\n4,40,b\n5,?,a\n6,60,b\n7,70,a\n"
            b"8,80,b\n")


def quoted_newlines():
    return (b'note,x,label\n"first line\nsecond line",1,a\n"plain",2,b\n"a ""quote""\nand more",'
            b'3,a\n"x",4,b\n"y",5,a\n"z",6,b\n')


def wide():
    rng = _rng()
    frame = pd.DataFrame(rng.normal(size=(40, 1500)), columns=[f"f{i}" for i in range(1500)])
    frame["label"] = np.where(frame["f0"] > 0, "pos", "neg")
    return _csv(frame)


def long():
    rng = _rng()
    n = 200_000
    x = rng.normal(size=(n, 3))
    label = np.where(x[:, 0] + 0.5 * x[:, 1] > 0, "yes", "no")
    return _csv(pd.DataFrame({"a": x[:, 0].round(3), "b": x[:, 1].round(3),
                              "c": x[:, 2].round(3), "label": label}))


def big_cell():
    cell = "z" * 200_000
    return (f"text,x,label\n{cell},1,a\nshort,2,b\nshort,3,a\nshort,4,b\nshort,5,a\n"
            "short,6,b\n").encode()


def hostile_names():
    rng = _rng()
    n = 60
    frame = pd.DataFrame({name: rng.normal(size=n) for name in HOSTILE[:-1]})
    frame[HOSTILE[-1]] = rng.choice(HOSTILE, n)
    return _csv(frame)


def gbk_chinese():
    """Li Hang's loan table (first rows), saved as GBK the way Excel in Chinese does."""
    text = ("年龄,有工作,有自己的房子,信贷情况,类别\n青年,否,否,一般,否\n青年,否,否,好,否\n"
            "青年,是,否,好,是\n青年,是,是,一般,是\n青年,否,否,一般,否\n中年,否,否,一般,否\n"
            "中年,否,否,好,否\n中年,是,是,好,是\n中年,否,是,非常好,是\n中年,否,是,非常好,是\n"
            "老年,否,是,非常好,是\n老年,否,是,好,是\n老年,是,否,好,是\n老年,是,否,非常好,是\n"
            "老年,否,否,一般,否\n")
    return text.encode("gbk")


def latin1_semicolons():
    return "ville;température;pluie\nGenève;12,5;oui\nZürich;10;non\nSète;18;oui\nLyon;14;non\n" \
        .encode("latin-1")


def utf8_bom_tsv():
    return "\ufeffa\tb\tlabel\n1\t2\tx\n3\t4\ty\n5\t6\tx\n7\t8\ty\n".encode("utf-8")


def utf16_tab():
    return "a\tb\tlabel\n1\t2\tx\n3\t4\ty\n5\t6\tx\n7\t8\ty\n".encode("utf-16")


def excel():
    buf = io.BytesIO()
    frame = pd.DataFrame({"x": [1, 2, 3, 4, 5, 6], "名字": ["甲", "乙", "甲", "乙", "甲", "乙"],
                          "label": ["a", "b", "a", "b", "a", "b"]})
    frame.to_excel(buf, index=False, engine="openpyxl")
    return buf.getvalue()


def parquet():
    buf = io.BytesIO()
    pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0], "label": ["a", "b", "a", "b"]}).to_parquet(buf)
    return buf.getvalue()


def fake_excel():
    return b"x,label\n1,a\n"


# -- Weka's ARFF ---------------------------------------------------------------------

def _arff_rows(n=40):
    rng = _rng()
    x = rng.normal(size=n).round(2)
    colour = rng.choice(["red", "green", "?"], n)
    label = np.where(x > 0, "yes", "no")
    return [f"{a},{c},{y}" for a, c, y in zip(x, colour, label)]


def arff_weather():
    """Nominal values declared in an order that is not sorted, ? for missing."""
    return ("% a small table\n@relation 'weather, hostile: <b>x</b> $y$'\n"
            "@attribute x numeric\n@attribute colour {red,green,blue}\n"
            "@attribute play {yes,no}\n@data\n" + "\n".join(_arff_rows()) + "\n").encode()


def arff_hostile():
    """Hostile names and values, quoted and escaped as ARFF writes them; the
    class (last) is nominal too."""
    names = ["'" + h.replace("\\", "\\\\").replace("'", "\\'") + "'" for h in HOSTILE]
    head = "@relation '<script>alert(1)</script>'\n" + f"@attribute {names[-1]} numeric\n" \
        + "".join(f"@attribute {n} {{{', '.join(names[:3])}}}\n" for n in names[:-1])
    rows = [f"{i}," + ",".join(names[(i * (j + 1) // 3) % 3] for j in range(len(names) - 1))
            for i in range(30)]
    return (head + "@data\n" + "\n".join(rows) + "\n").encode()


def arff_gbk():
    """Chinese names and values, saved as GBK."""
    text = ("@relation 贷款\n@attribute 年龄 {青年,中年,老年}\n@attribute 有工作 {是,否}\n"
            "@attribute 类别 {是,否}\n@data\n" + "\n".join(
                f"{['青年', '中年', '老年'][i % 3]},{'是否'[i % 2]},{'是否'[(i // 2) % 2]}"
                for i in range(15)) + "\n")
    return text.encode("gbk")


def arff_sparse():
    head = "@relation sparse\n" + "".join(f"@attribute w{i} numeric\n" for i in range(30))
    rows = [f"{{{i % 30} {i % 5 + 1}, 30 {'ab'[i % 2]}}}" for i in range(40)]
    return (head + "@attribute class {a,b}\n@data\n" + "\n".join(rows) + "\n").encode()


def arff_strings():
    """A string attribute (free text) beside numbers."""
    rows = [f"'note {i}: it\\'s {i % 4}',{i % 7},{'ab'[i % 2]}" for i in range(30)]
    return ("@relation notes\n@attribute note string\n@attribute n numeric\n"
            "@attribute class {a,b}\n@data\n" + "\n".join(rows) + "\n").encode()


def arff_date():
    return (b"@relation d\n@attribute when date 'yyyy-MM-dd'\n@attribute c {a,b}\n@data\n"
            b"'2020-01-01',a\n")


def arff_undeclared():
    return ("@relation u\n@attribute x numeric\n@attribute colour {red,green}\n"
            "@attribute c {a,b}\n@data\n1,red,a\n2,purple,b\n").encode()


def arff_truncated():
    """Cut in the middle of a quoted value."""
    return arff_weather()[:-40] + b"'unclosed"


def arff_no_data():
    return b"@relation r\n@attribute x numeric\n@attribute c {a,b}\n"


def arff_binary():
    return b"@relation r\n@attribute x numeric\n@data\n" + bytes(range(256)) * 16


def arff_latin1():
    return ("@relation villes\n@attribute ville {Genève,Zürich,Sète}\n@attribute pluie {oui,non}\n"
            "@data\nGenève,oui\nZürich,non\nSète,oui\nGenève,non\n").encode("latin-1")


CORPUS = {
    "empty.csv": empty,
    "garbage.csv": garbage,
    "image.csv": png_named_csv,
    "archive.csv": zip_named_csv,
    "ragged.csv": ragged,
    "one_row.csv": one_row,
    "one_column.csv": one_column,
    "target_all_missing.csv": target_all_missing,
    "single_class.csv": single_class,
    "id_target.csv": id_target,
    "infinities.csv": infinities,
    "duplicate_names.csv": duplicate_names,
    "mixed_types.csv": mixed_types,
    "quoted_newlines.csv": quoted_newlines,
    "wide.csv": wide,
    "long.csv": long,
    "big_cell.csv": big_cell,
    "hostile_names.csv": hostile_names,
    "gbk_chinese.csv": gbk_chinese,
    "latin1_semicolons.csv": latin1_semicolons,
    "utf8_bom.tsv": utf8_bom_tsv,
    "utf16.txt": utf16_tab,
    "table.xlsx": excel,
    "table.parquet": parquet,
    "not_really.xlsx": fake_excel,
    "weather.arff": arff_weather,
    "hostile.arff": arff_hostile,
    "gbk.arff": arff_gbk,
    "latin1.arff": arff_latin1,
    "sparse.arff": arff_sparse,
    "strings.arff": arff_strings,
    "date.arff": arff_date,
    "undeclared.arff": arff_undeclared,
    "truncated.arff": arff_truncated,
    "no_data.arff": arff_no_data,
    "binary.arff": arff_binary,
}

#: What reading each file gives: "error" (refused with a message) or "ok".
EXPECT = {
    "empty.csv": "error", "garbage.csv": "error", "image.csv": "error",
    "archive.csv": "error", "not_really.xlsx": "error",
    "date.arff": "error", "undeclared.arff": "error", "truncated.arff": "error",
    "no_data.arff": "error", "binary.arff": "error",
}
