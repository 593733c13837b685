"""ARFF files the reader refuses, each with the code it must raise and the
line it must name (None: the whole file)."""

HEADER = "@relation r\n@attribute x numeric\n@attribute c {a,b}\n@data\n"
REFUSED = {
    "date": ("@relation r\n@attribute x numeric\n@attribute when date 'yyyy-MM-dd'\n"
             "@data\n1,'2020-01-01'\n", "arff_date", 3),
    "relational": ("@relation r\n@attribute bag relational\n  @attribute x numeric\n"
                   "@end bag\n@attribute c {a,b}\n@data\n'1',a\n", "arff_relational", 2),
    "unknown type": ("@relation r\n@attribute x numbers\n@data\n1\n", "arff_attribute_type", 2),
    "no type": ("@relation r\n@attribute x\n@data\n1\n", "arff_attribute", 2),
    "undeclared value": (HEADER + "1,a\n2,c\n", "arff_undeclared_value", 6),
    "text for a number": (HEADER + "1,a\nabc,b\n", "arff_not_a_number", 6),
    "too few values": (HEADER + "1,a\n2\n", "arff_field_count", 6),
    "too many values": (HEADER + "1,a,3\n", "arff_field_count", 5),
    "instance weight": (HEADER + "1,a,{0.5}\n", "arff_weights", 5),
    "repeated name": ("@relation r\n@attribute x numeric\n@attribute x numeric\n@data\n1,2\n",
                      "arff_repeated_name", 3),
    "no data section": ("@relation r\n@attribute x numeric\n", "arff_no_data", None),
    "attribute after data": (HEADER + "1,a\n@attribute y numeric\n", "arff_layout", 6),
    "unclosed quote": (HEADER + "1,'a\n", "arff_layout", 5),
    "sparse index out of range": (HEADER + "{5 1}\n", "arff_field_count", 5),
}
